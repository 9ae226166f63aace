#!/bin/sh
# A GTP engine that never answers anything, from the handshake on.
while IFS= read -r line; do
    :
done
