# Tapp Arena — developer entry points. `make help` lists the targets with their one-line help
# (the text after `##`). Every target runs from the repository root.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

GO     ?= go
PYTHON ?= python3
# buf and the Go code generators are pinned in tools/go.mod, apart from the main go.mod.
BUF    := $(GO) tool -modfile=tools/go.mod buf
LINT   := $(GO) tool -modfile=tools/go.mod golangci-lint

VENV       := .venv
VENV_PY    := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.installed
PY_SDK     := bots/python

# Everything `make generate` writes: checked by proto-check for staleness.
GENERATED := proto/tapp/v1 proto/tapp/store/v1 proto/tapp/view/v1 $(PY_SDK)/src/tapp_bot/proto \
  bots/starter/gosdk.txt bots/starter/templates/go/go.mod.tmpl bots/starter/templates/go/go.sum.tmpl \
  bots/starter/templates/go/third_party

.PHONY: help generate proto-check venv test-python test-game-full test demo build cross-build lint

help: ## Show this list of targets.
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_-]+:.*## / {printf "  %-14s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

generate: $(VENV_STAMP) ## Regenerate Go (proto/tapp/...) and Python (bots/python/src/tapp_bot/proto) code from the protos, and the Go starter's module files.
	$(BUF) generate
	bash scripts/starter-go-module.sh

proto-check: $(VENV_STAMP) ## buf lint, buf breaking against the previous commit, and fail if generated code is stale.
	$(BUF) lint
	@if ! git rev-parse -q --verify 'HEAD~1^{commit}' >/dev/null; then \
	  echo "proto-check: no previous commit, skipping buf breaking"; \
	elif ! git cat-file -e 'HEAD~1:proto/tapp/v1' 2>/dev/null; then \
	  echo "proto-check: proto/tapp/v1 did not exist in HEAD~1, skipping buf breaking"; \
	else \
	  echo "$(BUF) breaking --against '.git#ref=HEAD~1,subdir=proto'"; \
	  $(BUF) breaking --against '.git#ref=HEAD~1,subdir=proto'; \
	fi
	$(MAKE) generate
	@git diff --exit-code --stat -- $(GENERATED) || { \
	  echo "proto-check: generated code is stale: run 'make generate' and commit the result"; exit 1; }
	@untracked=$$(git ls-files --others --exclude-standard -- $(GENERATED)); \
	if [ -n "$$untracked" ]; then \
	  echo "proto-check: generated files not in git: $$untracked"; \
	  echo "proto-check: run 'make generate' and commit the result"; exit 1; fi
	@for f in $$(find $(GENERATED) -name '*.pb.go' -o -name '*_pb2*.py*'); do \
	  dir=$$(dirname "$$f"); dir=$${dir#$(PY_SDK)/src/tapp_bot/proto/}; dir=$${dir#proto/}; \
	  base=$$(basename "$$f"); base=$${base%%.pb.go}; base=$${base%%_grpc}; base=$${base%%_pb2*}; \
	  [ -f "proto/$$dir/$$base.proto" ] || { \
	    echo "proto-check: $$f was generated from proto/$$dir/$$base.proto, which is gone: delete it"; exit 1; }; \
	done

venv: $(VENV_STAMP) ## Create .venv and install the Python SDK (editable, with dev tools); quick when up to date.

$(VENV_STAMP): $(PY_SDK)/pyproject.toml
	@test -x $(VENV_PY) || $(PYTHON) -m venv $(VENV)
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check -e '$(PY_SDK)[dev]'
	@touch $@

test-python: $(VENV_STAMP) ## Check the Python SDK with ruff and mypy (configured in its pyproject.toml), then run its tests.
	cd $(PY_SDK) && ../../$(VENV)/bin/ruff check .
	cd $(PY_SDK) && ../../$(VENV)/bin/mypy
	$(VENV_PY) -m pytest -rs $(PY_SDK)

test-game-full: $(VENV_STAMP) ## The Python game model against the Go engine in full: 100,000 random deals each way (long).
	TAPP_GAME_DIFF=full $(VENV_PY) -m pytest $(PY_SDK)/tests/test_game_differential.py $(PY_SDK)/tests/test_game_sample.py

test: ## Run every check: proto-check, go vet, lint, cross builds, go test, Python tests.
	$(MAKE) proto-check
	$(GO) vet ./...
	$(MAKE) lint
	$(MAKE) cross-build
	@# go test's lines, then the skipped tests grouped by the reason they give (how to enable them)
	$(GO) test -json ./... | $(GO) run ./scripts/testsummary
	$(MAKE) test-python

lint: ## gofmt on every Go file, architecture rules on the whole dependency graph (scripts/archlint, and the forbidden changes it must catch), then staticcheck, unused, errorlint and gocyclo (a complexity ceiling).
	@# Every Go file of the checkout, those of other platforms' builds and untracked ones too.
	@unformatted=$$(git ls-files -z --cached --others --exclude-standard -- '*.go' | \
	  xargs -0 -r "$$($(GO) env GOROOT)/bin/gofmt" -l); \
	if [ -n "$$unformatted" ]; then \
	  echo "lint: not formatted as gofmt writes them (run gofmt -w on them):"; echo "$$unformatted"; exit 1; fi
	$(GO) run ./scripts/archlint
	$(GO) test -count=1 ./scripts/archlint
	@# Another lint at the same time (a second checkout, a second make test) waits for it
	@# instead of failing with "parallel golangci-lint is running".
	$(LINT) run --allow-serial-runners ./...

cross-build: ## Check that tapp builds for Windows and macOS (nothing is kept).
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/tapp
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/tapp

build: ## Build the tapp binary into bin/tapp.
	$(GO) build -o bin/tapp ./cmd/tapp

demo: ## A short ladder among the built-in bots (SQLite, real gRPC): progress, leaderboard, how to replay.
	@dir=$$(mktemp -d "$${TMPDIR:-/tmp}/tapp-demo.XXXXXX"); \
	echo "demo: building tapp into $$dir"; \
	$(GO) build -o "$$dir/tapp" ./cmd/tapp; \
	echo "demo: $$dir/tapp league run docs/examples/demo.yaml --db $$dir/demo.db --for 90s"; \
	"$$dir/tapp" league run docs/examples/demo.yaml --db "$$dir/demo.db" --logs "$$dir/bot-logs" --for 90s; \
	echo; \
	echo "demo: the database and the bots' logs stay in $$dir; for instance:"; \
	echo "  $$dir/tapp ratings --league demo --db $$dir/demo.db --history"; \
	echo "  $$dir/tapp web --db $$dir/demo.db    # then open http://127.0.0.1:8080/#/?league=demo"; \
	echo "  $$dir/tapp league run docs/examples/demo.yaml --db $$dir/demo.db    # resumes; a finished league just prints its leaderboard"
