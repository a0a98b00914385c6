package web

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// dbCPU measures what a PostgreSQL server on this machine spends on the connections of one
// store: the store connects with an application_name of its own (dbCPUDSN), and the CPU time
// of the server's processes that serve those connections is read from /proc (schedstat: the
// nanoseconds each ran, not the clock ticks of stat). It sees the backends, not the parallel
// workers a plan may start, which end before they can be read: where a call's plans use
// them (a Gather node in EXPLAIN), their CPU is in its wall time only.
type dbCPU struct {
	admin *sql.DB // a connection of its own, not counted
	name  string
}

// dbCPUDSN returns a DSN of the same database for the store, with an application_name by
// which its connections are told apart, and that name.
func dbCPUDSN(dsn string) (string, string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", err
	}
	name := "tapp-bench-" + hex.EncodeToString(b[:])
	u, err := url.Parse(dsn)
	if err != nil {
		return "", "", err
	}
	q := u.Query()
	q.Set("application_name", name)
	u.RawQuery = q.Encode()
	return u.String(), name, nil
}

// newDBCPU connects to the store's database (dsn: the store's, without its name) to read
// which processes serve the connections named name. It fails when the server's processes
// cannot be read here (a server on another machine, or of a user this one may not read).
func newDBCPU(ctx context.Context, dsn, name string) (*dbCPU, error) {
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	admin.SetMaxOpenConns(1)
	var pid int
	if err := admin.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		admin.Close()
		return nil, err
	}
	if _, err := readSchedstat(pid); err != nil {
		admin.Close()
		return nil, fmt.Errorf("the server's process %d cannot be read here: %w", pid, err)
	}
	return &dbCPU{admin: admin, name: name}, nil
}

func (d *dbCPU) Close() error { return d.admin.Close() }

// total is the CPU time the server's processes of the store's connections have used so far.
func (d *dbCPU) total(ctx context.Context) (time.Duration, error) {
	rows, err := d.admin.QueryContext(ctx, `SELECT pid FROM pg_stat_activity WHERE application_name = $1`, d.name)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var sum time.Duration
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			return 0, err
		}
		ns, err := readSchedstat(pid)
		if err != nil {
			continue // ended since it was listed: its connection was closed
		}
		sum += ns
	}
	return sum, rows.Err()
}

// readSchedstat is the CPU time process pid has used: the first field of its schedstat.
func readSchedstat(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/schedstat")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, fmt.Errorf("/proc/%d/schedstat is empty", pid)
	}
	ns, err := strconv.ParseInt(f[0], 10, 64)
	return time.Duration(ns), err
}
