#!/bin/sh
# An NBoard engine that crashes mid-game: it answers the handshake, then
# kills itself with SIGSEGV when asked for a move (no core file), its last
# words on the error stream followed by a blank line.
ulimit -c 0
while IFS= read -r line; do
    case "$line" in
        ping*) echo "pong ${line#ping }" ;;
        go*) echo "about to crash" >&2; echo >&2; kill -SEGV $$ ;;
    esac
done
