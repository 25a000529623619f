import Foundation
import ReleaseAppStoreConnect
import ReleaseSupport
import X509

/// The signing operations (certificates, bundle ids, devices, profiles) with Apple's shapes: a certificate is issued
/// only from a real certificate signing request whose signature its own public key verifies, and carries that key;
/// a profile's `profileContent` is a `.mobileprovision` signed as CMS by the stand-in's test authority
/// (``LocalSigningAuthority``), listing the certificates' DER, the devices and the expiry. Revoking a certificate
/// (`DELETE`) makes the profiles that name it `INVALID`, as on App Store Connect.
extension LocalAppStoreConnectServer {
    // The contract's enumerations, in its order (the order Apple's "valid values" lists them in).
    static let certificateTypes = Components.Schemas.CertificateType.allCases.map(\.rawValue)
    static let profileTypes = Components.Schemas.ProfileCreateRequest.DataPayload.AttributesPayload.ProfileTypePayload.allCases.map(\.rawValue)
    static let bundleIDPlatforms = Components.Schemas.BundleIdPlatform.allCases.map(\.rawValue)
    /// How many current certificates of one type a team may hold (Apple refuses a fourth distribution certificate).
    static let certificateLimit = 3

    func handleSigning(_ request: APIRequest) throws -> Reply {
        switch request.operation {
        case .certificatesList: return listCertificates(request)
        case .certificatesCreate: return try createCertificate(request)
        case .certificatesGet:
            return try signingInstance(request, "certificates") { state in state.certificates.first { $0.id == request.id }.map(certificateJSON) }
        case .certificatesDelete: return try deleteCertificate(request)
        case .bundleIdsList: return listBundleIDs(request)
        case .bundleIdsCreate: return try createBundleID(request)
        case .bundleIdProfiles: return try bundleIDProfiles(request)
        case .devicesList: return listDevices(request)
        case .profilesList: return listProfiles(request)
        case .profilesCreate: return try createProfile(request)
        case .profilesGet:
            return try signingInstance(request, "profiles") { state in state.profiles.first { $0.id == request.id }.map(profileJSON) }
        case .profilesDelete: return try deleteProfile(request)
        default: throw AppStoreConnectProblem.unknownPath
        }
    }

    static func signingQuerySpec(_ operation: AppStoreConnectOperation) -> (filters: [String: [String]?], sorts: [String], paged: Bool) {
        func sorts(_ names: [String]) -> [String] { names.flatMap { [$0, "-" + $0] } }
        switch operation {
        case .certificatesList:
            return (
                ["displayName": nil, "certificateType": certificateTypes, "serialNumber": nil, "id": nil],
                sorts(["displayName", "certificateType", "serialNumber", "id"]), true
            )
        case .bundleIdsList:
            return (
                ["name": nil, "platform": bundleIDPlatforms, "identifier": nil, "seedId": nil, "id": nil],
                sorts(["name", "platform", "identifier", "seedId", "id"]), true
            )
        case .devicesList:
            return (
                ["name": nil, "platform": bundleIDPlatforms, "udid": nil, "status": ["ENABLED", "DISABLED"], "id": nil],
                sorts(["name", "platform", "udid", "status", "id"]), true
            )
        case .profilesList:
            return (
                ["name": nil, "profileType": profileTypes, "profileState": ["ACTIVE", "INVALID"], "id": nil],
                sorts(["name", "profileType", "profileState", "id"]), true
            )
        case .bundleIdProfiles:
            return ([:], [], true)
        default:
            return ([:], [], false)
        }
    }

    // MARK: State

    /// Runs `change` on the signing state (made empty the first time) under the lock, persisting the snapshot.
    func mutateSigning<T>(_ change: (inout AppStoreConnectSigningState) throws -> T) rethrows -> T {
        try mutate { state in
            var signing = state.snapshot.signing ?? AppStoreConnectSigningState()
            let result = try change(&signing)
            state.snapshot.signing = signing
            return result
        }
    }

    func readSigning<T>(_ read: (AppStoreConnectSigningState) -> T) -> T {
        state.withLock { read($0.snapshot.signing ?? AppStoreConnectSigningState()) }
    }

    func authority() throws -> LocalSigningAuthority {
        try signingAuthority.withLock { authority in
            if let authority { return authority }
            let made = try LocalSigningAuthority()
            authority = made
            return made
        }
    }

    private func signingInstance(_ request: APIRequest, _ type: String, _ find: (AppStoreConnectSigningState) -> [String: Any]?) throws -> Reply {
        guard let found = readSigning(find) else { throw AppStoreConnectProblem.notFound(type, request.id) }
        return single(found, reading: request)
    }

    func renderSigning(_ type: String, _ id: String, in snapshot: AppStoreConnectSnapshot) -> [String: Any]? {
        let signing = snapshot.signing ?? AppStoreConnectSigningState()
        switch type {
        case "certificates": return signing.certificates.first { $0.id == id }.map(certificateJSON)
        case "bundleIds": return signing.bundleIDs.first { $0.id == id }.map(bundleIDJSON)
        case "devices": return signing.devices.first { $0.id == id }.map(deviceJSON)
        case "profiles": return signing.profiles.first { $0.id == id }.map(profileJSON)
        default: return nil
        }
    }

    // MARK: Documents

    func certificateJSON(_ certificate: AppStoreConnectSigningState.Certificate) -> [String: Any] {
        var attributes: [String: Any] = [
            "name": certificate.name, "certificateType": certificate.certificateType, "displayName": certificate.displayName,
            "serialNumber": certificate.serialNumber, "expirationDate": Self.date(certificate.expirationDate),
            "certificateContent": certificate.content.base64EncodedString(), "activated": true,
        ]
        if let platform = certificate.platform { attributes["platform"] = platform }
        return ["type": "certificates", "id": certificate.id, "attributes": attributes, "links": ["self": resourceURL("certificates", certificate.id)]]
    }

    func bundleIDJSON(_ bundle: AppStoreConnectSigningState.BundleID) -> [String: Any] {
        [
            "type": "bundleIds", "id": bundle.id,
            "attributes": ["name": bundle.name, "platform": bundle.platform, "identifier": bundle.identifier, "seedId": bundle.seedID],
            "relationships": [
                "profiles": relationship("bundleIds", bundle.id, "profiles"),
                "bundleIdCapabilities": relationship("bundleIds", bundle.id, "bundleIdCapabilities"),
                "app": relationship("bundleIds", bundle.id, "app"),
            ],
            "links": ["self": resourceURL("bundleIds", bundle.id)],
        ]
    }

    func deviceJSON(_ device: AppStoreConnectSigningState.Device) -> [String: Any] {
        [
            "type": "devices", "id": device.id,
            "attributes": [
                "name": device.name, "platform": device.platform, "udid": device.udid, "deviceClass": device.deviceClass,
                "status": device.status, "model": device.deviceClass == "IPAD" ? "iPad" : "iPhone", "addedDate": Self.date(device.addedDate),
            ],
            "links": ["self": resourceURL("devices", device.id)],
        ]
    }

    func profileJSON(_ profile: AppStoreConnectSigningState.Profile) -> [String: Any] {
        [
            "type": "profiles", "id": profile.id,
            "attributes": [
                "name": profile.name, "platform": profile.platform, "profileType": profile.profileType, "profileState": profile.profileState,
                "profileContent": profile.content.base64EncodedString(), "uuid": profile.uuid,
                "createdDate": Self.date(profile.createdDate), "expirationDate": Self.date(profile.expirationDate),
            ],
            "relationships": [
                "bundleId": relationship("profiles", profile.id, "bundleId", data: ("bundleIds", profile.bundleIDResource)),
                "devices": relationship("profiles", profile.id, "devices"),
                "certificates": relationship("profiles", profile.id, "certificates"),
            ],
            "links": ["self": resourceURL("profiles", profile.id)],
        ]
    }

    // MARK: Certificates

    func listCertificates(_ request: APIRequest) -> Reply {
        list(
            request, { $0.signing?.certificates ?? [] }, as: certificateJSON,
            fields: { ["certificateType": $0.certificateType, "serialNumber": $0.serialNumber, "displayName": $0.displayName, "id": $0.id] })
    }

    func createCertificate(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "certificates")
        let attributes = try entity.attributes(
            ["csrContent": .string, "certificateType": .oneOf(Self.certificateTypes)],
            required: ["csrContent", "certificateType"])
        try entity.onlyRelationships(["merchantId", "passTypeId"])
        let type = attributes["certificateType"] as? String ?? ""
        let text = (attributes["csrContent"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let csr: CertificateSigningRequest
        do {
            if text.hasPrefix("-----BEGIN") {
                csr = try CertificateSigningRequest(pemEncoded: text)
            } else if let der = Data(base64Encoded: text, options: .ignoreUnknownCharacters) {
                csr = try CertificateSigningRequest(derEncoded: [UInt8](der))
            } else {
                throw AppStoreConnectProblem.invalid("/data/attributes/csrContent", "The CSR is not PEM or base64 DER")
            }
        } catch let problem as AppStoreConnectProblem {
            throw problem
        } catch {
            throw AppStoreConnectProblem.invalid("/data/attributes/csrContent", "Invalid Certificate Signing Request: \(error)")
        }
        guard csr.publicKey.isValidSignature(csr.signature, for: csr) else {
            throw AppStoreConnectProblem.invalid("/data/attributes/csrContent", "Invalid Certificate Signing Request: its signature does not verify with its public key")
        }
        let authority = try authority()
        let team = configuration.teamID
        let now = Date()
        try entity.decode(as: request.operation)
        let document: [String: Any] = try mutateSigning { signing in
            let current = signing.certificates.filter { $0.certificateType == type && $0.expirationDate > now }
            if current.count >= Self.certificateLimit {
                throw AppStoreConnectProblem(
                    status: 409, code: "ENTITY_ERROR", title: "There is a problem with the request entity",
                    detail: "You already have a current \(type) certificate or a pending certificate request.", pointer: "/data/attributes/certificateType")
            }
            let serial = signing.nextSerial
            signing.nextSerial += 1
            let kind = type.contains("DEVELOPMENT") ? "Apple Development" : "Apple Distribution"
            let commonName = "\(kind): Rehearsal Team (\(team))"
            let expires = now.addingTimeInterval(365 * 86_400)
            let der = try authority.issue(csr: csr, commonName: commonName, teamID: team, serial: serial, notValidAfter: expires, now: now)
            let certificate = AppStoreConnectSigningState.Certificate(
                id: String(format: "%010llX", serial), certificateType: type, name: kind + ": Rehearsal Team", displayName: "Rehearsal Team",
                serialNumber: String(format: "%llX", serial), platform: nil, expirationDate: expires, content: Data(der))
            signing.certificates.append(certificate)
            return certificateJSON(certificate)
        }
        return created(document, "certificates")
    }

    func deleteCertificate(_ request: APIRequest) throws -> Reply {
        try mutateSigning { signing in
            guard signing.certificates.contains(where: { $0.id == request.id }) else { throw AppStoreConnectProblem.notFound("certificates", request.id) }
            Self.revoke(request.id, in: &signing)
        }
        return Reply(status: 204)
    }

    /// Removes certificate `id` and makes every profile naming it INVALID.
    static func revoke(_ id: String, in signing: inout AppStoreConnectSigningState) {
        signing.certificates.removeAll { $0.id == id }
        for index in signing.profiles.indices where signing.profiles[index].certificateIDs.contains(id) {
            signing.profiles[index].profileState = "INVALID"
        }
    }

    // MARK: Bundle ids and devices

    func listBundleIDs(_ request: APIRequest) -> Reply {
        let items = readSigning { signing in
            signing.bundleIDs.filter { bundle in
                // Apple's identifier filter also matches longer identifiers that start with the value.
                (request.filter("identifier").map { $0.contains { bundle.identifier.hasPrefix($0) } } ?? true)
                    && request.matches(["platform": bundle.platform, "name": bundle.name, "seedId": bundle.seedID, "id": bundle.id])
            }.map(bundleIDJSON)
        }
        return page(items, request)
    }

    func createBundleID(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "bundleIds")
        let attributes = try entity.attributes(
            ["name": .string, "platform": .oneOf(Self.bundleIDPlatforms), "identifier": .string, "seedId": .string],
            required: ["identifier", "name", "platform"], nullable: ["seedId"])
        try entity.onlyRelationships([])
        let identifier = attributes["identifier"] as? String ?? ""
        let name = attributes["name"] as? String ?? ""
        guard !identifier.isEmpty, identifier.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }), !identifier.hasPrefix(".") else {
            throw AppStoreConnectProblem.invalid("/data/attributes/identifier", "An App ID Identifier may contain only letters, digits, hyphens and periods.")
        }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " }) else {
            throw AppStoreConnectProblem.invalid("/data/attributes/name", "The name may contain only letters, digits and spaces.")
        }
        let team = configuration.teamID
        try entity.decode(as: request.operation)
        let document: [String: Any] = try mutateSigning { signing in
            if signing.bundleIDs.contains(where: { $0.identifier == identifier }) {
                throw AppStoreConnectProblem.duplicate(
                    "/data/attributes/identifier",
                    "An App ID with Identifier '\(identifier)' is not available. Please enter a different string.")
            }
            let bundle = AppStoreConnectSigningState.BundleID(
                id: "B" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(9), identifier: identifier, name: name,
                platform: attributes["platform"] as? String ?? "IOS", seedID: team)
            signing.bundleIDs.append(bundle)
            return bundleIDJSON(bundle)
        }
        return created(document, "bundleIds")
    }

    func bundleIDProfiles(_ request: APIRequest) throws -> Reply {
        let items: [[String: Any]]? = readSigning { signing in
            guard signing.bundleIDs.contains(where: { $0.id == request.id }) else { return nil }
            return signing.profiles.filter { $0.bundleIDResource == request.id }.map(profileJSON)
        }
        guard let items else { throw AppStoreConnectProblem.notFound("bundleIds", request.id) }
        return page(items, request)
    }

    func listDevices(_ request: APIRequest) -> Reply {
        list(
            request, { $0.signing?.devices ?? [] }, as: deviceJSON,
            fields: { ["platform": $0.platform, "udid": $0.udid, "status": $0.status, "name": $0.name, "id": $0.id] })
    }

    // MARK: Profiles

    func listProfiles(_ request: APIRequest) -> Reply {
        list(
            request, { $0.signing?.profiles ?? [] }, as: profileJSON,
            fields: { ["name": $0.name, "profileType": $0.profileType, "profileState": $0.profileState, "id": $0.id] })
    }

    func createProfile(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "profiles")
        let attributes = try entity.attributes(["name": .string, "profileType": .oneOf(Self.profileTypes)], required: ["profileType", "name"])
        try entity.onlyRelationships(["bundleId", "devices", "certificates"])
        let bundleResource = try entity.relationship("bundleId", type: "bundleIds", required: true) ?? ""
        let certificateIDs = try Self.toMany(entity, "certificates", type: "certificates", required: true)
        let deviceIDs = try Self.toMany(entity, "devices", type: "devices", required: false)
        let name = attributes["name"] as? String ?? ""
        let type = attributes["profileType"] as? String ?? ""
        let listsDevices = type.hasSuffix("_DEVELOPMENT") || type.hasSuffix("_ADHOC")
        let authority = try authority()
        let team = configuration.teamID
        let now = Date()
        try entity.decode(as: request.operation)
        let document: [String: Any] = try mutateSigning { signing in
            guard let bundle = signing.bundleIDs.first(where: { $0.id == bundleResource }) else {
                throw AppStoreConnectProblem.invalidRelationship(
                    "/data/relationships/bundleId/data/id",
                    "There is no resource of type 'bundleIds' with id '\(bundleResource)'", status: 422)
            }
            if signing.profiles.contains(where: { $0.name == name }) {
                throw AppStoreConnectProblem.duplicate(
                    "/data/attributes/name", "Multiple profiles found with the name '\(name)'. Please remove the duplicate profiles and try again.")
            }
            var certificates: [AppStoreConnectSigningState.Certificate] = []
            for id in certificateIDs {
                guard let certificate = signing.certificates.first(where: { $0.id == id }) else {
                    throw AppStoreConnectProblem.invalidRelationship(
                        "/data/relationships/certificates/data", "There is no resource of type 'certificates' with id '\(id)'", status: 422)
                }
                let development = certificate.certificateType.contains("DEVELOPMENT")
                if development != type.hasSuffix("_DEVELOPMENT") {
                    throw AppStoreConnectProblem.invalidRelationship(
                        "/data/relationships/certificates/data",
                        "Certificate '\(id)' (\(certificate.certificateType)) cannot sign a \(type) profile")
                }
                certificates.append(certificate)
            }
            var devices: [AppStoreConnectSigningState.Device] = []
            for id in deviceIDs {
                guard let device = signing.devices.first(where: { $0.id == id }) else {
                    throw AppStoreConnectProblem.invalidRelationship("/data/relationships/devices/data", "There is no resource of type 'devices' with id '\(id)'", status: 422)
                }
                devices.append(device)
            }
            if listsDevices && devices.isEmpty {
                throw AppStoreConnectProblem.invalidRelationship("/data/relationships/devices", "A \(type) profile must list at least one device")
            }
            let expires = min(now.addingTimeInterval(365 * 86_400), certificates.map(\.expirationDate).min() ?? now)
            let uuid = UUID().uuidString
            let content = try Self.profileContent(
                name: name, type: type, uuid: uuid, team: team, bundle: bundle, certificates: certificates.map(\.content),
                devices: listsDevices ? devices.map(\.udid) : [], created: now, expires: expires, authority: authority)
            let profile = AppStoreConnectSigningState.Profile(
                id: "P" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(9), name: name, profileType: type,
                platform: type.hasPrefix("MAC") ? "MAC_OS" : "IOS", profileState: "ACTIVE", uuid: uuid, bundleIDResource: bundle.id,
                certificateIDs: certificateIDs, deviceIDs: listsDevices ? deviceIDs : [], createdDate: now, expirationDate: expires, content: content)
            signing.profiles.append(profile)
            return profileJSON(profile)
        }
        return created(document, "profiles")
    }

    func deleteProfile(_ request: APIRequest) throws -> Reply {
        try mutateSigning { signing in
            guard signing.profiles.contains(where: { $0.id == request.id }) else { throw AppStoreConnectProblem.notFound("profiles", request.id) }
            signing.profiles.removeAll { $0.id == request.id }
        }
        return Reply(status: 204)
    }

    /// The ids of to-many relationship `name` (`{"data": [{"type", "id"}]}`), each of `type`.
    static func toMany(_ entity: AppStoreConnectEntity, _ name: String, type: String, required: Bool) throws -> [String] {
        let relationships = entity.object["relationships"] as? [String: Any] ?? [:]
        guard let relationship = relationships[name] else {
            if required { throw AppStoreConnectProblem.required(relationship: name) }
            return []
        }
        let pointer = "/data/relationships/\(name)/data"
        guard let items = (relationship as? [String: Any])?["data"] as? [Any] else {
            throw AppStoreConnectProblem.invalidRelationship(pointer, "The relationship '\(name)' must have a 'data' array of resource identifiers")
        }
        return try items.enumerated().map { index, item in
            guard let linkage = item as? [String: Any], let id = linkage["id"] as? String, !id.isEmpty else {
                throw AppStoreConnectProblem.invalidRelationship("\(pointer)/\(index)", "Expected an object with 'type' and 'id'")
            }
            guard linkage["type"] as? String == type else {
                throw AppStoreConnectProblem.invalidRelationship("\(pointer)/\(index)/type", "'\(linkage["type"] ?? "")' is not a valid type here; expected '\(type)'")
            }
            return id
        }
    }

    /// A `.mobileprovision`: the profile's property list as Apple writes it, signed as CMS by the test authority.
    static func profileContent(
        name: String, type: String, uuid: String, team: String, bundle: AppStoreConnectSigningState.BundleID,
        certificates: [Data], devices: [String], created: Date, expires: Date,
        authority: LocalSigningAuthority
    ) throws -> Data {
        let platform = type.hasPrefix("TVOS") ? "tvOS" : type.hasPrefix("MAC") ? "OSX" : "iOS"
        var entitlements: [String: Any] = [
            "application-identifier": "\(team).\(bundle.identifier)", "com.apple.developer.team-identifier": team,
            "get-task-allow": type.hasSuffix("_DEVELOPMENT"), "keychain-access-groups": ["\(team).*"],
        ]
        if type.hasSuffix("_STORE") { entitlements["beta-reports-active"] = true }
        var plist: [String: Any] = [
            "AppIDName": bundle.name, "ApplicationIdentifierPrefix": [team], "CreationDate": created, "Platform": [platform],
            "IsXcodeManaged": false, "DeveloperCertificates": certificates, "Entitlements": entitlements, "ExpirationDate": expires,
            "Name": name, "TeamIdentifier": [team], "TeamName": "Rehearsal Team",
            "TimeToLive": max(1, Int(expires.timeIntervalSince(created) / 86_400)), "UUID": uuid, "Version": 1,
        ]
        if !devices.isEmpty { plist["ProvisionedDevices"] = devices }
        if type.hasSuffix("_INHOUSE") { plist["ProvisionsAllDevices"] = true }
        let xml = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        return try authority.sign(xml, now: created)
    }

    // MARK: Seeding and inspection

    /// Registers a device (as the developer website does); returns its id.
    @discardableResult
    package func addDevice(name: String, udid: String, deviceClass: String = "IPHONE", platform: ApplePlatform = .iOS, status: String = "ENABLED") -> String {
        mutateSigning { signing in
            if let index = signing.devices.firstIndex(where: { $0.udid == udid }) {
                signing.devices[index].status = status
                return signing.devices[index].id
            }
            let device = AppStoreConnectSigningState.Device(
                id: "D" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(9), name: name, udid: udid, platform: platform.bundleIDPlatform,
                deviceClass: deviceClass, status: status, addedDate: Date())
            signing.devices.append(device)
            return device.id
        }
    }

    /// Revokes every certificate of `type`, as a teammate would in the developer account: they leave the list and
    /// their profiles become INVALID. Returns how many were revoked.
    @discardableResult
    package func revokeCertificates(ofType type: String) -> Int {
        mutateSigning { signing in
            let ids = signing.certificates.filter { $0.certificateType == type }.map(\.id)
            for id in ids { Self.revoke(id, in: &signing) }
            return ids.count
        }
    }

    /// Moves the expiry of the profile named `name` to `date`, its content signed again to say the same.
    /// - Returns: whether there is such a profile.
    @discardableResult
    package func setProfileExpiration(name: String, to date: Date) throws -> Bool {
        let authority = try authority()
        let team = configuration.teamID
        return try mutateSigning { signing in
            guard let index = signing.profiles.firstIndex(where: { $0.name == name }) else { return false }
            var profile = signing.profiles[index]
            guard let bundle = signing.bundleIDs.first(where: { $0.id == profile.bundleIDResource }) else { return false }
            profile.expirationDate = date
            let devices = profile.deviceIDs.compactMap { id in signing.devices.first { $0.id == id }?.udid }
            let certificates = profile.certificateIDs.compactMap { id in signing.certificates.first { $0.id == id }?.content }
            profile.content = try Self.profileContent(
                name: profile.name, type: profile.profileType, uuid: profile.uuid, team: team, bundle: bundle, certificates: certificates,
                devices: devices, created: profile.createdDate, expires: date, authority: authority)
            signing.profiles[index] = profile
            return true
        }
    }

    /// Lines for the summary: certificates, bundle ids and profiles.
    func signingSummary(_ snapshot: AppStoreConnectSnapshot) -> [String] {
        guard let signing = snapshot.signing else { return [] }
        var lines: [String] = []
        for certificate in signing.certificates {
            lines.append("certificate \(certificate.certificateType) \(certificate.serialNumber) until \(Self.date(certificate.expirationDate))")
        }
        for bundle in signing.bundleIDs { lines.append("bundle id \(bundle.identifier) \(bundle.platform)") }
        for profile in signing.profiles {
            let bundle = signing.bundleIDs.first { $0.id == profile.bundleIDResource }?.identifier ?? profile.bundleIDResource
            lines.append(
                "profile \(profile.profileType) '\(Echo.text(profile.name))' \(bundle) \(profile.profileState) until \(Self.date(profile.expirationDate))"
                    + (profile.deviceIDs.isEmpty ? "" : ", \(profile.deviceIDs.count) device\(profile.deviceIDs.count == 1 ? "" : "s")"))
        }
        return lines
    }
}
