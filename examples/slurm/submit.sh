#!/bin/bash
# Usage: submit.sh CONFIG DIR [sbatch options for the workers, e.g. --array=1-8]
# Prints the job ids of the workers and of the report.
set -euo pipefail
here=$(dirname "$0")
config=$1 dir=$2
shift 2
workers=$(sbatch --parsable "$@" "$here/workers.sbatch" "$config" "$dir")
echo "$workers"
sbatch --parsable --dependency="afterany:${workers%%;*}" "$here/report.sbatch" "$dir"
