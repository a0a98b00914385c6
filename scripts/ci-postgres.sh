#!/usr/bin/env bash
# ci-postgres.sh — make a local PostgreSQL server available for the store tests.
#
# Idempotent: installs Debian's postgresql package when no server is installed, creates and
# starts a cluster when none is running, creates (or resets the password of) the role and
# database "tapp", and prints ONE line on stdout:
#
#   export TAPP_TEST_POSTGRES='postgres://tapp:tapp@127.0.0.1:5432/tapp?sslmode=disable'
#
# Everything else goes to stderr, so CI can do:   eval "$(bash scripts/ci-postgres.sh)"
#
# Settings (environment): TAPP_PG_USER (tapp), TAPP_PG_PASSWORD (tapp), TAPP_PG_DB (tapp).
# Must run as root (it uses apt-get and runs psql as the postgres system user).
set -euo pipefail

user=${TAPP_PG_USER:-tapp}
pass=${TAPP_PG_PASSWORD:-tapp}
db=${TAPP_PG_DB:-tapp}

log() { echo "ci-postgres: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
	log "must run as root (apt-get, pg_ctlcluster)"
	exit 1
fi

# 1. Install the server if missing.
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
	log "installing postgresql from Debian's packages"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq postgresql >&2
fi
ver=$(ls -1 /usr/lib/postgresql | sort -V | tail -n 1)
log "postgresql $ver installed"

# 2. Make sure a cluster exists and is running. Containers often block the postinst
#    from starting services (policy-rc.d), so start it by hand.
if ! pg_lsclusters -h 2>/dev/null | awk -v v="$ver" '$1 == v && $2 == "main"' | grep -q .; then
	log "creating cluster $ver/main"
	pg_createcluster "$ver" main >&2
fi
port=$(pg_lsclusters -h | awk -v v="$ver" '$1 == v && $2 == "main" {print $3}')
status=$(pg_lsclusters -h | awk -v v="$ver" '$1 == v && $2 == "main" {print $4}')
if [ "$status" != "online" ]; then
	log "starting cluster $ver/main on port $port"
	pg_ctlcluster "$ver" main start >&2 || service postgresql start >&2
fi
for _ in $(seq 1 60); do
	if runuser -u postgres -- pg_isready -q -p "$port"; then
		break
	fi
	sleep 0.5
done
runuser -u postgres -- pg_isready -p "$port" >&2

# 3. Role and database (idempotent). The role owns its database, so the tests can create
#    a schema per test.
psql_pg() { (cd / && runuser -u postgres -- psql -v ON_ERROR_STOP=1 -q -p "$port" "$@"); }
esc_pass=${pass//\'/\'\'}
psql_pg -d postgres >&2 <<SQL
DO \$\$
BEGIN
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$user') THEN
		CREATE ROLE "$user" LOGIN PASSWORD '$esc_pass';
	ELSE
		ALTER ROLE "$user" WITH LOGIN PASSWORD '$esc_pass';
	END IF;
END
\$\$;
SQL
if ! psql_pg -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
	log "creating database $db"
	psql_pg -d postgres -c "CREATE DATABASE \"$db\" OWNER \"$user\"" >&2
fi
psql_pg -d "$db" -c "ALTER SCHEMA public OWNER TO \"$user\"" >&2

log "ready"
echo "export TAPP_TEST_POSTGRES='postgres://$user:$pass@127.0.0.1:$port/$db?sslmode=disable'"
