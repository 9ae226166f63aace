#!/bin/sh
# An NBoard engine that thinks for 5 s per move, past any short time limit.
while IFS= read -r line; do
    case "$line" in
        ping*) echo "pong ${line#ping }" ;;
        go*) sleep 5; echo "=== F5" ;;
    esac
done
