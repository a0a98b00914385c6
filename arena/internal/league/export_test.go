package league

// WatchHeldPlans has r call f with the number of match plans its run holds after each job.
func WatchHeldPlans(r *Runner, f func(held int)) { r.heldPlans = f }
