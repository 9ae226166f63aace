#!/bin/sh
# An NBoard engine that hangs: it answers the handshake, then never answers
# `go` (its sleep is a child process, killed with its process group).
while IFS= read -r line; do
    case "$line" in
        ping*) echo "pong ${line#ping }" ;;
        go*) sleep 60 ;;
    esac
done
