#!/usr/bin/env bash
# PostgreSQL for the head's MLflow server; cluster.yaml runs this as root in the dptune image
# (head_setup_commands), and `ray up` runs it again on a running cluster, so every step is idempotent.
#
#   PGDATA=DIR PGPASSFILE=FILE [PGPORT=5432] head-postgres.sh
#
# Creates the data directory DIR once (its configuration inside, so that a new head finds everything on
# the shared storage), starts the server listening on 127.0.0.1:PGPORT only, and creates the role and
# database `mlflow`. The role's password is drawn once and kept in FILE, libpq's password file
# ("127.0.0.1:*:mlflow:mlflow:PASSWORD", mode 600), which the MLflow server reads through PGPASSFILE:
# no password on a command line. Only one server may use DIR at a time.
set -euo pipefail
: "${PGDATA:?set PGDATA, the data directory}" "${PGPASSFILE:?set PGPASSFILE, the password file}"
export PGPORT=${PGPORT:-5432}  # read by the server, pg_ctl and psql
cd /  # the postgres user cannot enter root's home
# Debian keeps the server's programs (initdb, pg_ctl) off the PATH, in a directory per major version.
PATH="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1):$PATH"

as_postgres() { runuser -u postgres -- "$@"; }

if [ ! -s "$PGPASSFILE" ]; then
    password=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
    (umask 077 && echo "127.0.0.1:*:mlflow:mlflow:$password" > "$PGPASSFILE")
fi

install -d -o postgres -g postgres -m 700 "$PGDATA"
install -d -o postgres -g postgres -m 2775 /var/run/postgresql  # the local socket's directory
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    as_postgres initdb --pgdata="$PGDATA" --encoding=UTF8 --auth-local=peer --auth-host=scram-sha-256
    echo "listen_addresses = '127.0.0.1'" >> "$PGDATA/postgresql.conf"
fi
as_postgres pg_ctl status --pgdata="$PGDATA" > /dev/null \
    || as_postgres pg_ctl start --wait --pgdata="$PGDATA" --log="$PGDATA/server.log"

password=$(cut -d: -f5 "$PGPASSFILE")
as_postgres psql --no-psqlrc --quiet -v ON_ERROR_STOP=1 <<SQL
\set password '$password'
SELECT 'CREATE ROLE mlflow LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'mlflow')\gexec
ALTER ROLE mlflow PASSWORD :'password';
SELECT 'CREATE DATABASE mlflow OWNER mlflow'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'mlflow')\gexec
SQL
