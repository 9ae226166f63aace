#!/bin/sh
# An NBoard engine that answers `go` with something that is not a move.
while IFS= read -r line; do
    case "$line" in
        ping*) echo "pong ${line#ping }" ;;
        go*) echo "hello there"; echo "=== banana" ;;
    esac
done
