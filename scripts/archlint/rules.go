package main

// The arena's architecture as rules: which layer each package is in, what a layer may depend
// on, and the conventions the team keeps (docs/ARCHITECTURE.md tells the why at length).
// A new package goes into a layer here; a rule that must bend for one package gets an
// exception below that says why, and an exception that is no longer needed is itself reported.

// Layers, from the bottom up. A package may depend on its own layer and the layers below it.
var layers = []layer{
	{
		name: "core",
		why:  "the rules and the Go bots: pure Go, the standard library only",
		packages: []string{
			m("engine/..."), // the rules
			m("bots/..."),   // the Bot interface and the built-in bots; the SDK and the starter are adapters
		},
		thirdParty: []string{}, // none
	},
	{
		name: "domain",
		why:  "the arena's own logic in engine and domain types: referee, matches, leagues, ratings",
		packages: []string{
			m("arena/internal/domain/..."),
			m("arena/internal/referee/..."),
			m("arena/internal/match/..."),
			m("arena/internal/admission/..."), // how many tables an overloaded host may play at once
			m("arena/internal/league/..."),    // the runner, plan, leaguestore, liveness, sprt
			m("arena/internal/rating/..."),
			m("arena/internal/board/..."),
			m("arena/internal/analysis/..."),
			m("arena/internal/dealchain/..."), // the hash chain of a match's stored deals
		},
		thirdParty: []string{"go.uber.org/zap/..."},
	},
	{
		name: "codec",
		why:  "the wire contract and its conversion to and from engine types",
		packages: []string{
			m("proto/..."),
			m("arena/wire/..."),
			m("arena/internal/protoappend/..."),
			m("arena/internal/encode"),          // requests in wire form, without generated code
			m("arena/internal/encode/encodev1"), // request encoding 1, frozen: what compact records of format 1 rebuild
			m("arena/internal/protoconv/..."),
			m("arena/internal/wireform/..."),
			m("arena/internal/notation/..."), // Tapp Portable Notation: a record format, like the wire's
			m("arena/internal/loopback/..."), // what a listen address says: whether a token may cross it in plain text
		},
		thirdParty: []string{"google.golang.org/protobuf/...", "google.golang.org/grpc/..."},
	},
	{
		name:  "adapters",
		why:   "the arena's edges: gRPC, processes, storage, files, HTTP, the Go SDK",
		apart: true,
		packages: []string{
			m("arena/internal/server/..."),
			m("arena/internal/inproc/..."),
			m("arena/internal/launch/..."),
			m("arena/internal/sandbox/..."), // runsc, bwrap: hosted bots' programs as the launcher runs them
			m("arena/internal/store/..."),   // SQLite, PostgreSQL, memory
			m("arena/internal/replay/..."),
			m("arena/internal/dataset/..."),
			m("arena/internal/web/..."),
			m("arena/internal/league/leaguefile/..."),
			m("arena/internal/notify/..."), // an organiser told that a league, match or SPRT ended
			m("bots/sdk/..."),
			m("bots/starter/..."),
		},
	},
	{
		name: "app",
		why:  "the use cases, shared by the CLI and the dashboard, and the assembly of an arena",
		packages: []string{
			m("arena/internal/app/..."),
			m("arena/internal/host/..."),
			m("arena/internal/reask/..."),
			m("arena/internal/botcheck/..."),
			m("arena/internal/hosting/..."), // submissions, their builds and seats, the standing ladder
		},
	},
	{
		name: "cli",
		why:  "the tapp command: flags and printing",
		packages: []string{
			m("arena/internal/cli/..."),
			m("arena/cli/..."),
			m("cmd/..."),
		},
	},
	{
		name: "tool",
		why:  "test suites, test programs and the repository's own tools: nothing of the product uses them",
		packages: []string{
			m("arena/internal/testcert/..."),
			m("arena/internal/enginegames/..."),
			m("arena/internal/testbot/..."),
			m("arena/internal/yardstick/..."),
			m("arena/internal/encode/encodetest/..."),
			m("arena/internal/store/storetest/..."),
			m("docs/..."),
			m("scripts/..."),
		},
	},
}

// The public API: the only packages a program outside the module can import (Go keeps
// everything under an internal/ folder to the module). A bot author needs the rules, the Go
// SDK and the built-in bots, the SDK's wire decoder and its gRPC codec, and the protos;
// cmd/tapp needs one entry point. Everything else of the arena lives under arena/internal/,
// and a package added outside it is a finding (PUBLIC_API), as is a public package whose
// exported declarations name a type of an internal package (an outside program could hold
// it but never name it: the domain would be public in all but name).
var publicAPI = []publicPackage{
	{pattern: m("engine/..."), why: "the rules"},
	{pattern: m("bots/..."), why: "the Bot interface, the built-in bots, the Go SDK and the starters"},
	{pattern: m("arena/wire"), why: "the SDK's decoder of the arena's messages"},
	{pattern: m("arena/wire/grpccodec"), why: "the gRPC codec the SDK and the server use"},
	{pattern: m("proto/..."), why: "the protocol's generated code"},
	{pattern: m("arena/cli"), exports: []string{"Main"}, why: "cmd/tapp's one entry point"},
}

// Conventions checked on the import graph. Transitive rules look through every package on
// the way (the module's, the standard library's, third-party); direct ones at a package's own
// imports, where the standard library itself would make the transitive form meaningless
// (fmt imports os) or where a rule is about who may use a package, not who may link it.
var depRules = []depRule{
	{
		id:    "CORE_NO_IO",
		why:   "the engine and the Go bots do no I/O and no logging: a bot is given an observation and returns an action",
		scope: []string{layerPackages("core")},
		except: []string{
			m("bots/sdk/..."), m("bots/starter/..."), // adapters under bots/
		},
		deny: []string{
			"os", "os/...", "io/fs", "io/ioutil", "path/filepath", "net", "net/...", "syscall",
			"log", "log/...", "database/...", "plugin", "runtime/debug", "runtime/pprof",
		},
		direct: true,
	},
	{
		id:     "ENGINE_DETERMINISTIC",
		why:    "the engine is deterministic: same seed, same deal; no clock and no unseeded randomness",
		scope:  []string{m("engine/...")},
		deny:   []string{"time", "math/rand", "math/rand/v2", "crypto/rand"},
		direct: true,
	},
	{
		id:    "DOMAIN_IN_PROCESS",
		why:   "the core and the domain run no process and touch no database or protobuf, not even through a library: adapters do",
		scope: []string{layerPackages("core"), layerPackages("domain")},
		except: []string{
			m("bots/sdk/..."), m("bots/starter/..."),
			m("arena/internal/league/leaguefile/..."), // adapters inside the league's folder
		},
		deny: []string{
			"database/...", "os/exec", "plugin",
			"google.golang.org/protobuf/...", "google.golang.org/grpc/...",
		},
	},
	{
		id:    "DOMAIN_OFF_THE_NETWORK",
		why:   "the core and the domain open no connection: the server, the store and the dashboard do (zap links net/http for its level handler, so this rule is on imports)",
		scope: []string{layerPackages("core"), layerPackages("domain")},
		except: []string{
			m("bots/sdk/..."), m("bots/starter/..."), m("arena/internal/league/leaguefile/..."),
		},
		deny:   []string{"net", "net/...", "crypto/tls"},
		direct: true,
	},
	{
		id:     "SQL_IN_STORE",
		why:    "SQL stays in the store: everything else reads and writes through domain.Store",
		except: []string{m("arena/internal/store/...")},
		deny: []string{
			"database/sql", "database/sql/driver", "github.com/jackc/pgx/...", "modernc.org/sqlite/...",
		},
		direct: true,
	},
	{
		id:         "PROCESSES_IN_LAUNCH",
		why:        "bot processes are started by arena/internal/launch only (supervision, logs, process groups)",
		except:     []string{m("arena/internal/launch/..."), m("scripts/...")},
		deny:       []string{"os/exec"},
		direct:     true,
		exceptMain: false,
	},
	{
		id:         "SIGNALS_IN_CLI",
		why:        "signals are the command's business: it turns them into a cancelled context for everything below",
		except:     []string{layerPackages("cli")},
		deny:       []string{"os/signal"},
		direct:     true,
		exceptMain: true,
	},
	{
		id:  "LOGGING_WITH_ZAP",
		why: "the arena logs with zap (structured; JSON off a terminal); the Go SDK with log/slog",
		// The packages that run Go bots through the SDK hand it a log/slog logger (bridged from
		// zap by zapslog), as the SDK's public API asks.
		except: []string{m("bots/sdk/..."), m("arena/internal/cli/..."), m("arena/internal/botcheck/..."),
			m("arena/internal/reask/..."), m("arena/internal/testbot/...")},
		deny:       []string{"log", "log/slog", "log/syslog"},
		direct:     true,
		exceptMain: true,
	},
	{
		id:    "SDK_WITHOUT_ARENA",
		why:   "a Go bot links the rules, the wire codec and gRPC, not the arena",
		scope: []string{m("bots/sdk/...")},
		deny: []string{
			layerPackages("domain"), layerPackages("app"), layerPackages("cli"),
			m("arena/internal/server/..."), m("arena/internal/store/..."), m("arena/internal/launch/..."),
		},
	},
	{
		id:    "INPROC_WITHOUT_GRPC",
		why:   "in-process play links neither gRPC nor its dependencies",
		scope: []string{m("arena/internal/inproc/...")},
		deny:  []string{"google.golang.org/grpc/...", "golang.org/x/net/..."},
	},
	{
		id:    "ANALYSIS_WITHOUT_BOTS",
		why:   "the analysis judges play with the double-dummy solver (bots/doubledummy), never through a playing bot: a change to a bot must not change how its play is judged",
		scope: []string{m("arena/internal/analysis/...")},
		deny: []string{
			m("bots/search/..."), m("bots/sleuth/..."), m("bots/heuristic/..."), m("bots/random/..."), m("bots/builtin/..."),
		},
	},
	{
		id:    "DASHBOARD_READ_ONLY",
		why:   "the dashboard reads the store and the match feed: it links no arena host, launcher, sandbox, hosting use case, league runner, bot SDK or YAML",
		scope: []string{m("arena/internal/web/...")},
		deny: []string{
			m("arena/internal/host/..."), m("arena/internal/launch/..."), m("arena/internal/server/..."),
			m("arena/internal/hosting/..."), m("arena/internal/sandbox/..."),
			m("arena/internal/league"), m("arena/internal/league/leaguefile/..."), m("bots/sdk/..."),
			"github.com/goccy/go-yaml/...",
		},
	},
}

// Conventions checked at uses in the code: a selector of an imported package
// ("fmt.Println", "os.Stdout") or a builtin ("print").
var useRules = []useRule{
	{
		id:         "LIBRARIES_DO_NOT_PRINT",
		why:        "libraries never print: they log with zap or return what the command prints",
		except:     []string{layerPackages("cli")},
		exceptMain: true,
		deny:       []string{"fmt.Print", "fmt.Printf", "fmt.Println", "os.Stdout", "os.Stderr", "print", "println"},
	},
	{
		id:     "PROCESSES_IN_LAUNCH",
		why:    "bot processes are started by arena/internal/launch only (supervision, logs, process groups)",
		except: []string{m("arena/internal/launch/...")},
		deny: []string{
			"os.StartProcess",
			"syscall.Exec", "syscall.ForkExec", "syscall.StartProcess",
			"syscall.SYS_EXECVE", "syscall.SYS_EXECVEAT", "syscall.SYS_FORK", "syscall.SYS_VFORK", "syscall.SYS_CLONE", "syscall.SYS_CLONE3",
			"golang.org/x/sys/unix.Exec",
			"golang.org/x/sys/unix.SYS_EXECVE", "golang.org/x/sys/unix.SYS_EXECVEAT", "golang.org/x/sys/unix.SYS_FORK",
			"golang.org/x/sys/unix.SYS_VFORK", "golang.org/x/sys/unix.SYS_CLONE", "golang.org/x/sys/unix.SYS_CLONE3",
			"golang.org/x/sys/windows.CreateProcess", "golang.org/x/sys/windows.CreateProcessAsUser",
		},
	},
}

// Exceptions: one package allowed one dependency a rule denies, and why. Those marked
// "until" are known debts that an open change removes; the checker reports every exception
// that no longer excuses anything, so the list cannot rot.
var exceptions = []exception{
	{rule: "ADAPTERS_APART", from: m("arena/internal/web"), to: []string{m("arena/internal/replay")},
		why: "the dashboard shows recorded deals through the replay viewer"},
	{rule: "ADAPTERS_APART", from: m("arena/internal/server"), to: []string{m("arena/internal/replay")},
		why: "the admin API's match pages hold back deals still in play as every surface does (replay.Gate, replay.OpenNets)"},
	{rule: "ADAPTERS_APART", from: m("arena/internal/league/leaguefile"), to: []string{m("arena/internal/launch")},
		why: "a league file's bot commands are split as the launcher will run them (launch.Split)"},
	{rule: "ADAPTERS_APART", from: m("arena/internal/league/leaguefile"), to: []string{m("arena/internal/notify")},
		why: "a league file's notify: targets are checked as they will be sent (notify.Check)"},
	{rule: "ADAPTERS_APART", from: m("arena/internal/notify"), to: []string{m("arena/internal/launch")},
		why: "a notification command runs through the launcher, which alone starts processes (launch.RunOnce)"},
	{rule: "ADAPTERS_APART", from: m("arena/internal/sandbox"), to: []string{m("arena/internal/launch"), m("arena/internal/launch/confine")},
		why: "a sandbox is a way of launching: its back ends return the launcher's spec, and bwrap's starts the confinement the launcher holds (confine)"},
	{rule: "LIBRARIES_DO_NOT_PRINT", from: m("arena/internal/testbot"), to: []string{"os.Stderr"},
		why: "a test binary run as a bot program reports its failure on stderr, as every bot does"},
	{rule: "THIRD_PARTY", from: m("arena/internal/league/liveness"), to: []string{"golang.org/x/sys/windows"},
		why: "the platform's check that a worker's process is gone (Windows)"},
}
