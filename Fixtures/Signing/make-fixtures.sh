#!/bin/sh
# Generates the signing fixtures the Apple step tests and Pipelines/distribute.json's fake run use. The outputs are
# committed; run this again (from anywhere) to re-create them.
#
#   release.mobileprovision   app-store profile 'Demo App Store' for ABCDE12345.com.example.demo (from ../IPA/appstore.ipa)
#   adhoc.mobileprovision     ad-hoc profile 'Demo AdHoc' with two devices (from ../IPA/adhoc.ipa)
#   expired.mobileprovision   app-store profile that expired on 2014-01-01 (from ../IPA/expired.ipa)
#   other.mobileprovision     app-store profile for ABCDE12345.com.example.other (from ../IPA/mismatched.ipa)
#   Distribution.p12          a self-signed 'Apple Distribution: Demo (TEAM123456)' certificate and key, password
#                             'demo-p12-password' (the fake `security` does not read it; its shape is real)
#   AuthKey_DEMO123456.p8     a P-256 key in PKCS #8 PEM, as App Store Connect hands out (a test key, nothing else)
#   CertificateKey.pem        an RSA 2048 key in PKCS #1 PEM: the private key signing.sync tests make certificates
#                             for (a test key, nothing else)
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The CMS steps need OpenSSL 1.1 or later (`openssl cms`); a Mac's /usr/bin/openssl is LibreSSL, which has no `cms`
# (and no `genrsa -traditional`): there, OPENSSL=$(brew --prefix openssl@3)/bin/openssl runs this.
openssl() { command "${OPENSSL:-openssl}" "$@"; }
if ! openssl version | grep -q '^OpenSSL [1-9]'; then
    echo "$0: needs OpenSSL 1.1+ ('openssl cms'), not $(openssl version): set OPENSSL to one" >&2
    exit 1
fi
for pair in release:appstore adhoc:adhoc expired:expired other:mismatched; do
    name=${pair%%:*}
    ipa=${pair#*:}
    unzip -p "../IPA/$ipa.ipa" Payload/Demo.app/embedded.mobileprovision > "$name.mobileprovision"
done
openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -subj "/CN=Apple Distribution: Demo (TEAM123456)/OU=TEAM123456/O=Demo" \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
openssl pkcs12 -export -inkey "$work/key.pem" -in "$work/cert.pem" -passout pass:demo-p12-password -out Distribution.p12
openssl ecparam -genkey -name prime256v1 -noout -out "$work/ec.pem"
openssl pkcs8 -topk8 -nocrypt -in "$work/ec.pem" -out AuthKey_DEMO123456.p8
openssl genrsa -traditional -out CertificateKey.pem 2048 2>/dev/null
ls -l
