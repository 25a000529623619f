#!/bin/sh
# Generates the demo .ipa files the gate.ipa tests read. The outputs are committed, so the tests need neither
# openssl nor zip; run this again (from anywhere) to re-create them after changing it.
#
# Each ipa is Payload/Demo.app/{Info.plist, Demo, embedded.mobileprovision}. The profile is a property list
# signed with `openssl cms -sign -nodetach -outform DER` by a self-signed certificate the script creates (the
# signature is not what the gate checks; its shape is what matters: a DER CMS SignedData with the plist as
# content, as Apple's profiles are).
#
#   adhoc.ipa           ad-hoc profile (ProvisionedDevices, get-task-allow false), XML Info.plist, 3.0.1 (4322)
#   appstore.ipa        app-store profile (no devices), binary Info.plist, 3.0.1 (4322)
#   expired.ipa         app-store profile that expired on 2014-01-01
#   mismatched.ipa      profile for TEAMID.com.example.other while the app is com.example.demo
#   wildcard.ipa        development profile for TEAMID.* (get-task-allow true)
#   missing-keys.ipa    Info.plist without MinimumOSVersion and CFBundleVersion, no profile
#   streamed.ipa        app-store profile signed with `openssl cms -stream`: BER, indefinite lengths, the
#                       plist split into 4 KiB chunks (DeveloperCertificates make it that long, as in real ones)
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

openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -subj "/CN=Release Fixtures Signing/O=Example" \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null

# info_plist FILE VERSION BUILD [EXTRA_KEYS]
info_plist() {
    cat > "$1" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>CFBundleExecutable</key>
	<string>Demo</string>
	<key>CFBundleIdentifier</key>
	<string>com.example.demo</string>
	<key>CFBundleName</key>
	<string>Demo</string>
	<key>CFBundlePackageType</key>
	<string>APPL</string>
	<key>CFBundleShortVersionString</key>
	<string>$2</string>
$4	<key>CFBundleSupportedPlatforms</key>
	<array>
		<string>iPhoneOS</string>
	</array>
</dict>
</plist>
PLIST
}
standard_keys() {
    printf '\t<key>CFBundleVersion</key>\n\t<string>%s</string>\n\t<key>MinimumOSVersion</key>\n\t<string>15.0</string>\n' "$1"
}

# profile FILE NAME APP_ID EXPIRATION GET_TASK_ALLOW DEVICES_XML [EXTRA_KEYS [CMS_FLAGS]]
profile() {
    cat > "$work/profile.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>AppIDName</key>
	<string>Demo</string>
	<key>ApplicationIdentifierPrefix</key>
	<array>
		<string>ABCDE12345</string>
	</array>
	<key>CreationDate</key>
	<date>2014-01-01T00:00:00Z</date>
	<key>Platform</key>
	<array>
		<string>iOS</string>
	</array>
	<key>Entitlements</key>
	<dict>
		<key>application-identifier</key>
		<string>$3</string>
		<key>com.apple.developer.team-identifier</key>
		<string>ABCDE12345</string>
		<key>get-task-allow</key>
		<$5/>
		<key>keychain-access-groups</key>
		<array>
			<string>ABCDE12345.*</string>
		</array>
	</dict>
	<key>ExpirationDate</key>
	<date>$4</date>
	<key>Name</key>
	<string>$2</string>
$6${7:-}	<key>TeamIdentifier</key>
	<array>
		<string>ABCDE12345</string>
	</array>
	<key>TeamName</key>
	<string>Example Ltd</string>
	<key>TimeToLive</key>
	<integer>365</integer>
	<key>UUID</key>
	<string>0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0</string>
	<key>Version</key>
	<integer>1</integer>
</dict>
</plist>
PLIST
    # shellcheck disable=SC2086
    openssl cms -sign -nodetach -binary ${8:-} -outform DER -in "$work/profile.plist" \
        -signer "$work/cert.pem" -inkey "$work/key.pem" -out "$1"
}
devices='	<key>ProvisionedDevices</key>
	<array>
		<string>00008030-001A2B3C4D5E6F70</string>
		<string>00008101-000A1B2C3D4E5F60</string>
	</array>
'

# ipa NAME — zips $work/app as NAME.ipa with fixed timestamps
ipa() {
    rm -rf "$work/Payload" && mkdir -p "$work/Payload" && cp -R "$work/app" "$work/Payload/Demo.app"
    find "$work/Payload" -exec touch -t 201410220601.18 {} +
    rm -f "$1"
    (cd "$work" && zip -qrX "$OLDPWD/$1" Payload)
}

new_app() {
    rm -rf "$work/app" && mkdir -p "$work/app"
    printf '\317\372\355\376demo binary stand-in\n' > "$work/app/Demo"
}

new_app
info_plist "$work/app/Info.plist" 3.0.1 4322 "$(standard_keys 4322)"
profile "$work/app/embedded.mobileprovision" "Demo AdHoc" ABCDE12345.com.example.demo 2030-01-01T00:00:00Z false "$devices"
ipa adhoc.ipa

new_app
info_plist "$work/app/Info.plist" 3.0.1 4322 "$(standard_keys 4322)"
plutil_binary=$(command -v plistutil || true)
if [ -n "$plutil_binary" ]; then
    plistutil -i "$work/app/Info.plist" -o "$work/app/Info.bin" -f bin && mv "$work/app/Info.bin" "$work/app/Info.plist"
else
    python3 -c 'import plistlib,sys; d=plistlib.load(open(sys.argv[1],"rb")); plistlib.dump(d,open(sys.argv[1],"wb"),fmt=plistlib.FMT_BINARY)' "$work/app/Info.plist"
fi
profile "$work/app/embedded.mobileprovision" "Demo App Store" ABCDE12345.com.example.demo 2030-01-01T00:00:00Z false ""
ipa appstore.ipa

new_app
info_plist "$work/app/Info.plist" 3.0.1 4322 "$(standard_keys 4322)"
profile "$work/app/embedded.mobileprovision" "Demo App Store 2013" ABCDE12345.com.example.demo 2014-01-01T00:00:00Z false ""
ipa expired.ipa

new_app
info_plist "$work/app/Info.plist" 3.0.1 4322 "$(standard_keys 4322)"
profile "$work/app/embedded.mobileprovision" "Other App Store" ABCDE12345.com.example.other 2030-01-01T00:00:00Z false ""
ipa mismatched.ipa

new_app
info_plist "$work/app/Info.plist" 3.0.1 4322 "$(standard_keys 4322)"
profile "$work/app/embedded.mobileprovision" "Team Development" 'ABCDE12345.*' 2030-01-01T00:00:00Z true "$devices"
ipa wildcard.ipa

new_app
info_plist "$work/app/Info.plist" 3.0.1 4322 ""
ipa missing-keys.ipa

new_app
info_plist "$work/app/Info.plist" 3.0.1 4322 "$(standard_keys 4322)"
certificate=$(openssl x509 -in "$work/cert.pem" -outform DER | base64 | tr -d '\n')
certificates=$(printf '\t<key>DeveloperCertificates</key>\n\t<array>\n'; for _ in 1 2 3 4 5; do printf '\t\t<data>%s</data>\n' "$certificate"; done; printf '\t</array>\n')
profile "$work/app/embedded.mobileprovision" "Demo App Store Streamed" ABCDE12345.com.example.demo 2030-01-01T00:00:00Z false "" "$certificates" -stream
ipa streamed.ipa

ls -l *.ipa
