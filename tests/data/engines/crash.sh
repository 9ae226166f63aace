#!/bin/sh
# An NBoard engine that crashes mid-game: it answers the handshake, then
# kills itself with SIGSEGV when asked for a move (no core file).
ulimit -c 0
while IFS= read -r line; do
    case "$line" in
        ping*) echo "pong ${line#ping }" ;;
        go*) echo "about to crash" >&2; kill -SEGV $$ ;;
    esac
done
