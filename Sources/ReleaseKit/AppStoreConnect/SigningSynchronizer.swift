import Foundation
import ReleaseArtifacts
import ReleaseSupport

/// Finds, and with permission creates or renews, what a signing setup needs on App Store Connect, from the
/// certificate's private key: the certificate whose public key is the key's, each bundle id, and per bundle id a
/// profile that is active, valid for `min_days_left` more days, names the certificate and, for development and ad
/// hoc, lists every enabled device. What Codemagic's `fetch-signing-files --create` does, with the writes listed
/// first (``assess()``) so a read-only run can say exactly what it would change.
///
/// Only profiles it made itself (named ``profileName(bundleID:type:)``, or the specification's
/// ``SigningSpecification/profileName``) are ever deleted, and only to be made again; a certificate is never revoked.
package struct SigningSynchronizer: Sendable {
    package let client: AppStoreConnectClient
    package let key: SigningKey
    package let specification: SigningSpecification

    package init(client: AppStoreConnectClient, key: SigningKey, specification: SigningSpecification) {
        self.client = client
        self.key = key
        self.specification = specification
    }

    /// The name of the profiles `signing.sync` makes: `release app-store com.example.app`. The name is how it knows
    /// its own, which it may renew.
    package static func profileName(bundleID: String, type: ProvisioningProfile.ProfileType) -> String {
        "release \(type.rawValue) \(bundleID)"
    }

    /// What a sync finds and would change; read-only (GET requests only).
    /// - Throws: ``AppStoreConnectError``, or ``SigningSynchronizer/Failure`` when the platform has no such profile.
    package func assess() async throws -> SigningAssessment {
        guard let profileType = specification.profileType else {
            throw Failure.unsupported("\(specification.platform.rawValue) has no \(specification.type.rawValue) profiles")
        }
        let now = specification.now
        var assessment = SigningAssessment(
            specification: specification, certificate: nil, missingCertificate: nil, expiringCertificate: nil,
            bundles: [], devices: [], changes: [])

        // The certificate: of the profile's types, for this key, valid beyond the deadline (the latest first).
        let certificates = try await client.resources(
            CertificateAttributes.self,
            AppStoreConnectClient.path(
                "/v1/certificates",
                [
                    ("filter[certificateType]", specification.certificateTypes.joined(separator: ",")), ("limit", "200"),
                ]))
        var mine: [SigningAssessment.FoundCertificate] = []
        for resource in certificates {
            guard let content = resource.attributes?.certificateContent, let der = Data(base64Encoded: content).map({ [UInt8]($0) }),
                key.matches(certificate: der), let info = SigningCertificateInfo(der: der)
            else { continue }
            mine.append(.init(id: resource.id, type: resource.attributes?.certificateType ?? "", der: der, info: info))
        }
        mine.sort { $0.info.notValidAfter > $1.info.notValidAfter }
        if let best = mine.first {
            if best.info.notValidAfter > specification.deadline {
                assessment.certificate = best
            } else {
                assessment.expiringCertificate = best
            }
        }

        // The devices development and ad hoc profiles must list.
        if specification.listsDevices {
            let devices = try await client.resources(
                DeviceAttributes.self,
                AppStoreConnectClient.path(
                    "/v1/devices",
                    [
                        ("filter[status]", "ENABLED"), ("limit", "200"),
                    ]))
            assessment.devices = devices.compactMap { device in
                guard let udid = device.attributes?.udid, let deviceClass = device.attributes?.deviceClass,
                    specification.platform.deviceClasses.contains(deviceClass)
                else { return nil }
                return (device.id, udid)
            }
        }

        // Each bundle id and its profiles.
        var seenKeyCertificate: SigningCertificateInfo?
        for identifier in specification.bundleIDs {
            let resources = try await client.resources(
                BundleIdAttributes.self,
                AppStoreConnectClient.path(
                    "/v1/bundleIds",
                    [
                        ("filter[identifier]", identifier), ("limit", "200"),
                    ]))
            let platforms = [specification.platform.bundleIDPlatform, "UNIVERSAL"]
            let resource = resources.first { $0.attributes?.identifier == identifier && platforms.contains($0.attributes?.platform ?? "") }
            var bundle = SigningAssessment.Bundle(identifier: identifier, resourceID: resource?.id)
            guard let resource else {
                bundle.problem = "App Store Connect has no bundle id '\(identifier)'"
                assessment.bundles.append(bundle)
                continue
            }
            let profiles = try await client.resources(
                ProfileAttributes.self,
                AppStoreConnectClient.path(
                    "/v1/bundleIds/\(resource.id)/profiles", [("limit", "200")]))
            let ownName = specification.ownProfileName(bundleID: identifier)
            var usable: [SigningAssessment.FoundProfile] = []
            var problems: [String] = []
            for profile in profiles where profile.attributes?.profileType == profileType {
                let attributes = profile.attributes
                let content = attributes?.profileContent.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } ?? []
                let parsed = try? ProvisioningProfile(data: Data(content))
                let expires = attributes?.expirationDate.flatMap(Timestamp.parseISO8601) ?? parsed?.expirationDate
                let found = SigningAssessment.FoundProfile(
                    id: profile.id, name: attributes?.name ?? parsed?.name ?? "", uuid: attributes?.uuid ?? parsed?.uuid ?? "",
                    expires: expires, state: attributes?.profileState ?? "", content: content, owned: (attributes?.name ?? "") == ownName)
                if seenKeyCertificate == nil, let parsed {
                    for der in parsed.developerCertificates where key.matches(certificate: der) {
                        seenKeyCertificate = SigningCertificateInfo(der: der)
                    }
                }
                // With a name asked for, a profile of another name is not one Xcode would pick: it is left alone.
                if specification.profileName != nil, !found.owned { continue }
                let reason = unusable(found, parsed: parsed, certificate: assessment.certificate, devices: assessment.devices, now: now)
                if let reason {
                    problems.append("'\(found.name)': \(reason)")
                    if found.owned && bundle.stale == nil { bundle.stale = found }
                } else {
                    usable.append(found)
                }
            }
            usable.sort { ($0.owned ? 1 : 0, $0.expires ?? .distantPast) > ($1.owned ? 1 : 0, $1.expires ?? .distantPast) }
            bundle.profile = usable.first
            if bundle.profile == nil {
                bundle.problem =
                    problems.isEmpty
                    ? "it has no \(specification.type.rawValue) profile" + (specification.profileName != nil ? " named '\(ownName)'" : "")
                    : problems.joined(separator: "; ")
            }
            assessment.bundles.append(bundle)
        }
        if assessment.certificate == nil, assessment.expiringCertificate == nil, let seen = seenKeyCertificate {
            assessment.missingCertificate = seen
        }

        // The writes, in order: certificate, bundle ids, profiles.
        if assessment.certificate == nil { assessment.changes.append(.createCertificate(type: specification.certificateTypes[0])) }
        for bundle in assessment.bundles where bundle.resourceID == nil {
            assessment.changes.append(.createBundleID(identifier: bundle.identifier, platform: specification.platform.bundleIDPlatform))
        }
        for bundle in assessment.bundles where bundle.profile == nil {
            let name = specification.ownProfileName(bundleID: bundle.identifier)
            let reason = bundle.resourceID == nil ? "new bundle id" : (bundle.problem ?? "none usable")
            if let stale = bundle.stale {
                assessment.changes.append(.renewProfile(bundleID: bundle.identifier, name: stale.name, uuid: stale.uuid, reason: reason))
            } else {
                assessment.changes.append(.createProfile(bundleID: bundle.identifier, name: name, reason: reason))
            }
        }
        return assessment
    }

    /// Why `profile` cannot be used; nil when it can.
    func unusable(
        _ profile: SigningAssessment.FoundProfile, parsed: ProvisioningProfile?, certificate: SigningAssessment.FoundCertificate?,
        devices: [(id: String, udid: String)], now: Date
    ) -> String? {
        if profile.state != "ACTIVE" { return "it is \(profile.state.isEmpty ? "not active" : profile.state)" }
        guard let expires = profile.expires else { return "it has no expiration date" }
        if expires <= now { return "it expired on \(Timestamp.iso8601(expires))" }
        if expires <= specification.deadline {
            return "it expires on \(Timestamp.iso8601(expires)), within \(specification.minDaysLeft) days"
        }
        guard let parsed else { return "its content cannot be read" }
        guard let certificate else { return "it cannot name the certificate, which is to be made" }
        if !parsed.developerCertificates.contains(certificate.der) {
            return "it does not include certificate \(certificate.info.serialNumber)"
        }
        if specification.listsDevices {
            let listed = Set(parsed.devices)
            let missing = devices.map(\.udid).filter { !listed.contains($0) }
            if !missing.isEmpty {
                return "it lacks \(missing.count) enabled device\(missing.count == 1 ? "" : "s"): \(missing.joined(separator: ", "))"
            }
        }
        return nil
    }

    /// What ``apply(_:log:)`` leaves: the certificate, the profile per bundle id, and how many writes it made.
    package struct Result: Sendable {
        package var certificate: SigningAssessment.FoundCertificate
        /// In the order of the bundle ids.
        package var profiles: [(bundleID: String, profile: SigningAssessment.FoundProfile)]
        package var writes: Int
    }

    /// Why a sync cannot go on.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case unsupported(String)
        case unusable(String)

        package var description: String {
            switch self {
            case .unsupported(let text), .unusable(let text): return text
            }
        }
    }

    /// Makes the writes `assessment` lists (nothing when it is complete) and returns what to install.
    /// - Throws: ``AppStoreConnectError`` with Apple's words, or ``Failure`` when an answer cannot be used.
    package func apply(_ assessment: SigningAssessment, log: @Sendable (String) -> Void) async throws -> Result {
        var writes = 0
        var certificate = assessment.certificate
        if certificate == nil {
            let type = specification.certificateTypes[0]
            let certificateType = try AppStoreConnectClient.contract(type, as: Components.Schemas.CertificateType.self, what: "a certificate type")
            let created = try await client.write(
                "POST", "/v1/certificates",
                Components.Schemas.CertificateCreateRequest(
                    data: .init(_type: .certificates, attributes: .init(csrContent: try key.certificateSigningRequest(), certificateType: certificateType))),
                as: CertificateAttributes.self)
            writes += 1
            guard let content = created.attributes?.certificateContent, let der = Data(base64Encoded: content).map({ [UInt8]($0) }),
                key.matches(certificate: der), let info = SigningCertificateInfo(der: der)
            else {
                throw Failure.unusable("App Store Connect created certificate \(created.id), but its content is not a certificate for the private key")
            }
            certificate = .init(id: created.id, type: type, der: der, info: info)
            log("created \(type) certificate \(info.serialNumber) '\(info.commonName)', valid until \(Timestamp.iso8601(info.notValidAfter))")
        }
        guard let certificate else { throw Failure.unusable("no certificate") }

        var profiles: [(bundleID: String, profile: SigningAssessment.FoundProfile)] = []
        for var bundle in assessment.bundles {
            if bundle.resourceID == nil {
                let platform = specification.platform.contractBundleIDPlatform
                let created = try await client.write(
                    "POST", "/v1/bundleIds",
                    Components.Schemas.BundleIdCreateRequest(
                        data: .init(
                            _type: .bundleIds,
                            attributes: .init(name: Self.bundleName(bundle.identifier), platform: platform, identifier: bundle.identifier))),
                    as: BundleIdAttributes.self)
                writes += 1
                bundle.resourceID = created.id
                log("created bundle id \(bundle.identifier) (\(created.id))")
            }
            if let profile = bundle.profile {
                profiles.append((bundle.identifier, profile))
                continue
            }
            if let stale = bundle.stale {
                _ = try await client.send("DELETE", "/v1/profiles/\(stale.id)")
                writes += 1
                log("deleted stale profile '\(stale.name)' (\(stale.uuid))")
            }
            let name = specification.ownProfileName(bundleID: bundle.identifier)
            typealias ProfileType = Components.Schemas.ProfileCreateRequest.DataPayload.AttributesPayload.ProfileTypePayload
            let profileType = try AppStoreConnectClient.contract(specification.profileType ?? "", as: ProfileType.self, what: "a profile type")
            let created = try await client.write(
                "POST", "/v1/profiles",
                Components.Schemas.ProfileCreateRequest(
                    data: .init(
                        _type: .profiles, attributes: .init(name: name, profileType: profileType),
                        relationships: .init(
                            bundleId: .init(data: .init(_type: .bundleIds, id: bundle.resourceID ?? "")),
                            devices: specification.listsDevices ? .init(data: assessment.devices.map { .init(_type: .devices, id: $0.id) }) : nil,
                            certificates: .init(data: [.init(_type: .certificates, id: certificate.id)])))),
                as: ProfileAttributes.self)
            writes += 1
            let content = created.attributes?.profileContent.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } ?? []
            guard let parsed = try? ProvisioningProfile(data: Data(content)) else {
                throw Failure.unusable("App Store Connect created profile '\(name)' (\(created.id)), but its content is not a provisioning profile")
            }
            let profile = SigningAssessment.FoundProfile(
                id: created.id, name: created.attributes?.name ?? name, uuid: created.attributes?.uuid ?? parsed.uuid,
                expires: created.attributes?.expirationDate.flatMap(Timestamp.parseISO8601) ?? parsed.expirationDate,
                state: created.attributes?.profileState ?? "ACTIVE", content: content, owned: true)
            log(
                "created profile '\(profile.name)' (\(profile.uuid)) for \(bundle.identifier)"
                    + (profile.expires.map { ", valid until \(Timestamp.iso8601($0))" } ?? ""))
            profiles.append((bundle.identifier, profile))
        }
        return Result(certificate: certificate, profiles: profiles, writes: writes)
    }

    /// A bundle id's `name` on App Store Connect: letters, digits and spaces only (`com.example.app` → `com example app`).
    static func bundleName(_ identifier: String) -> String {
        String(identifier.map { $0.isLetter || $0.isNumber ? $0 : " " })
    }
}
