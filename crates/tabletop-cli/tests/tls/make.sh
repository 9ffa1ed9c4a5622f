#!/bin/sh
# Makes the test certificates of the `wss://` test (tests/all/online_tls.rs): a private CA
# and a certificate for 127.0.0.1 and localhost that it signs, ECDSA P-256, valid for 100
# years. Run in this folder; the files are committed so the test needs no generator.
set -eu
openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out ca.key
openssl req -x509 -new -key ca.key -sha256 -days 36500 -subj "/CN=Tabletop test CA" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" -out ca.pem
openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out server.key
openssl req -new -key server.key -subj "/CN=127.0.0.1" -out server.csr
printf '%s\n' "basicConstraints=critical,CA:FALSE" \
    "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" \
    "subjectAltName=IP:127.0.0.1,DNS:localhost" > server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -sha256 \
    -days 36500 -extfile server.ext -out server.pem
rm -f server.csr server.ext ca.srl ca.key
