package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tapparena/tapp/arena/internal/launch"
)

// runsc is the gVisor back end: `runsc --rootless --network=none run` of an OCI bundle made
// per run, whose root is an empty read-only folder with only the mounts of the Spec. The
// program's system calls go to gVisor's kernel (the Sentry, itself under seccomp), not the
// host's; it has no network device at all; it reaches the arena's Unix socket through
// --host-uds=open, and only the one socket bound in is there to open. gVisor enforces the
// rlimits of the bundle (address space, processes, open files, file size) but not RLIMIT_CPU:
// the launcher's CPU watch stops it instead.
type runsc struct {
	bin string
	o   Options
}

func (*runsc) Name() string { return Runsc }

func (r *runsc) User() *launch.Credential { return r.o.User }

func (r *runsc) Launch(s Spec) (launch.Spec, error) {
	state := filepath.Join(r.o.Work, "runsc-state")
	if err := r.ownedDir(state); err != nil {
		return launch.Spec{}, err
	}
	bundles := filepath.Join(r.o.Work, "runsc-bundles")
	if err := r.ownedDir(bundles); err != nil {
		return launch.Spec{}, err
	}
	config, err := json.MarshalIndent(r.config(s), "", " ")
	if err != nil {
		return launch.Spec{}, err
	}
	prepare := func() (launch.Prepared, error) {
		id := newID()
		bundle := filepath.Join(bundles, id)
		if err := os.MkdirAll(filepath.Join(bundle, "rootfs"), 0o755); err != nil {
			return launch.Prepared{}, err
		}
		if err := os.WriteFile(filepath.Join(bundle, "config.json"), config, 0o644); err != nil {
			return launch.Prepared{}, err
		}
		// runsc makes the mount points in the root as the sandbox's user.
		if err := r.ownedDir(filepath.Join(bundle, "rootfs")); err != nil {
			return launch.Prepared{}, err
		}
		cmd := []string{r.bin, "--rootless", "--network=none", "--host-uds=open", "--ignore-cgroups", "--root", state}
		if s.Limits.OneProcess { // gVisor's kernel applies the bundle's seccomp filter (processFilter)
			cmd = append(cmd, "--oci-seccomp")
		}
		if dir := os.Getenv("TAPP_RUNSC_DEBUG"); dir != "" { // runsc's own logs, for an organiser chasing a failure
			cmd = append(cmd, "--debug", "--debug-log="+dir+"/")
		}
		cmd = append(cmd, "run", "--bundle", bundle, id)
		cleanup := func() {
			_ = os.RemoveAll(bundle)
			// A run that was killed leaves its container's state behind.
			matches, _ := filepath.Glob(filepath.Join(state, id+"*"))
			for _, m := range matches {
				_ = os.RemoveAll(m)
			}
		}
		return launch.Prepared{Command: cmd, Cleanup: cleanup}, nil
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + state}
	return launch.Spec{Command: []string{r.bin}, Prepare: prepare, Env: env, CleanEnv: true, Group: true,
		Credential: r.o.User, Limits: limitsOf(s.Limits), Dir: "/"}, nil
}

// ownedDir makes a private directory that the sandbox's user owns.
func (r *runsc) ownedDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if r.o.User != nil {
		if err := os.Chown(dir, int(r.o.User.UID), int(r.o.User.GID)); err != nil {
			return err
		}
	}
	return nil
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "tapp-" + hex.EncodeToString(b[:])
}

// The parts of an OCI runtime spec (config.json) that a bundle sets.
type (
	ociSpec struct {
		Version  string     `json:"ociVersion"`
		Process  ociProcess `json:"process"`
		Root     ociRoot    `json:"root"`
		Hostname string     `json:"hostname"`
		Mounts   []ociMount `json:"mounts"`
		Linux    ociLinux   `json:"linux"`
	}
	ociProcess struct {
		User            ociUser             `json:"user"`
		Args            []string            `json:"args"`
		Env             []string            `json:"env"`
		Cwd             string              `json:"cwd"`
		Capabilities    map[string][]string `json:"capabilities"`
		Rlimits         []ociRlimit         `json:"rlimits,omitempty"`
		NoNewPrivileges bool                `json:"noNewPrivileges"`
	}
	ociUser struct {
		UID uint32 `json:"uid"`
		GID uint32 `json:"gid"`
	}
	ociRlimit struct {
		Type string `json:"type"`
		Hard uint64 `json:"hard"`
		Soft uint64 `json:"soft"`
	}
	ociRoot struct {
		Path     string `json:"path"`
		Readonly bool   `json:"readonly"`
	}
	ociMount struct {
		Destination string   `json:"destination"`
		Type        string   `json:"type"`
		Source      string   `json:"source"`
		Options     []string `json:"options,omitempty"`
	}
	ociLinux struct {
		Namespaces []ociNamespace `json:"namespaces"`
		Seccomp    *ociSeccomp    `json:"seccomp,omitempty"`
	}
	ociSeccomp struct {
		DefaultAction string       `json:"defaultAction"`
		Syscalls      []ociSyscall `json:"syscalls"`
	}
	ociSyscall struct {
		Names  []string    `json:"names"`
		Action string      `json:"action"`
		Args   []ociSysArg `json:"args,omitempty"`
	}
	ociSysArg struct {
		Index    uint   `json:"index"`
		Value    uint64 `json:"value"`
		ValueTwo uint64 `json:"valueTwo"`
		Op       string `json:"op"`
	}
	ociNamespace struct {
		Type string `json:"type"`
	}
)

func (r *runsc) config(s Spec) ociSpec {
	// Rootless, runsc maps the container's root to the unprivileged user it runs as: the
	// program is "root" only in gVisor's kernel, without a single capability, and owns the
	// folders it may write (the host's nobody owns them). Another id inside would own nothing.
	uid, gid := uint32(0), uint32(0)
	dir := s.Dir
	if dir == "" {
		dir = Scratch
	}
	l := s.Limits
	var rl []ociRlimit
	add := func(name string, v int64) {
		if v > 0 {
			rl = append(rl, ociRlimit{Type: name, Hard: uint64(v), Soft: uint64(v)})
		}
	}
	add("RLIMIT_AS", l.Memory)
	add("RLIMIT_NPROC", int64(l.Processes))
	add("RLIMIT_FSIZE", l.FileSize)
	add("RLIMIT_NOFILE", int64(l.OpenFiles))
	tmpfs := []string{"nosuid", "nodev", "mode=1777"}
	if l.Scratch > 0 {
		tmpfs = append(tmpfs, "size="+strconv.FormatInt(l.Scratch, 10))
	}
	mounts := []ociMount{
		{Destination: "/proc", Type: "proc", Source: "proc"},
		{Destination: "/dev", Type: "tmpfs", Source: "tmpfs"},
		{Destination: Scratch, Type: "tmpfs", Source: "tmpfs", Options: tmpfs},
	}
	bind := func(m Mount) ociMount {
		mode := "ro"
		if m.Writable {
			mode = "rw"
		}
		return ociMount{Destination: m.Target, Type: "bind", Source: m.Source, Options: []string{"rbind", mode, "nosuid", "nodev"}}
	}
	for _, m := range systemMounts() {
		mounts = append(mounts, bind(m))
	}
	for _, m := range s.Mounts {
		mounts = append(mounts, bind(m))
	}
	if s.Socket != "" {
		mounts = append(mounts, bind(Mount{Source: s.Socket, Target: SocketDir, Writable: true}))
	}
	none := []string{}
	linux := ociLinux{Namespaces: []ociNamespace{{"pid"}, {"network"}, {"ipc"}, {"uts"}, {"mount"}}}
	if l.OneProcess {
		linux.Seccomp = processFilter()
	}
	return ociSpec{
		Version: "1.0.0",
		Process: ociProcess{User: ociUser{UID: uid, GID: gid}, Args: s.Command, Env: s.Env, Cwd: dir,
			Capabilities: map[string][]string{"bounding": none, "effective": none, "inheritable": none, "permitted": none, "ambient": none},
			Rlimits:      rl, NoNewPrivileges: true},
		Root:     ociRoot{Path: "rootfs", Readonly: true},
		Hostname: "tapp-sandbox",
		Mounts:   mounts,
		Linux:    linux,
	}
}

// cloneThread is CLONE_THREAD: a clone that starts a thread, not a process.
const cloneThread = 0x10000

// processFilter is the OCI seccomp filter that refuses new processes inside gVisor and lets
// threads start (Limits.OneProcess): fork and vfork, and clone without CLONE_THREAD, fail
// with EPERM (gVisor's 2022 build ignores errnoRet: EPERM it is). clone3 is not named:
// this gVisor does not implement it (ENOSYS, on which glibc falls back to clone), and a rule
// would answer EPERM, on which glibc gives up on threads too. The escape suite tries clone3
// itself, so a gVisor that starts to implement it fails the suite rather than this rule.
func processFilter() *ociSeccomp {
	return &ociSeccomp{DefaultAction: "SCMP_ACT_ALLOW", Syscalls: []ociSyscall{
		{Names: []string{"fork", "vfork"}, Action: "SCMP_ACT_ERRNO"},
		// (flags & CLONE_THREAD) == 0, in libseccomp's terms: value is the mask, valueTwo the datum.
		{Names: []string{"clone"}, Action: "SCMP_ACT_ERRNO", Args: []ociSysArg{{Index: 0, Value: cloneThread, ValueTwo: 0, Op: "SCMP_CMP_MASKED_EQ"}}},
	}}
}
