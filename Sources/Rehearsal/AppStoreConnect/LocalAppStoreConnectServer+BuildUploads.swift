import Crypto
import Foundation
import ReleaseAppStoreConnect
import ReleaseSupport
import ReleaseVersioning

/// The Build Upload API: reserving an upload and its file, the part uploads to the URLs it hands out, the
/// commit with its checks, and processing into a build.
extension LocalAppStoreConnectServer {
    // The contract's enumerations, in its order (the order Apple's "valid values" lists them in).
    static let platforms = Components.Schemas.Platform.allCases.map(\.rawValue)
    static let utis = Components.Schemas.BuildUploadFileCreateRequest.DataPayload.AttributesPayload.UtiPayload.allCases.map(\.rawValue)
    static let assetTypes = Components.Schemas.BuildUploadFileCreateRequest.DataPayload.AttributesPayload.AssetTypePayload.allCases.map(\.rawValue)

    // MARK: buildUploads

    func createBuildUpload(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "buildUploads")
        let attributes = try entity.attributes(
            ["cfBundleShortVersionString": .string, "cfBundleVersion": .string, "platform": .oneOf(Self.platforms)],
            required: ["cfBundleShortVersionString", "cfBundleVersion", "platform"]
        )
        try entity.onlyRelationships(["app"])
        let appID = try entity.relationship("app", type: "apps", required: true) ?? ""
        let version = attributes["cfBundleShortVersionString"] as? String ?? ""
        let build = attributes["cfBundleVersion"] as? String ?? ""
        let platform = attributes["platform"] as? String ?? ""
        for (name, value) in [("cfBundleShortVersionString", version), ("cfBundleVersion", build)] where !Self.isBundleVersion(value) {
            throw AppStoreConnectProblem.invalid(
                "/data/attributes/\(name)", "'\(value)' is not a valid \(name): use one to four period-separated integers, such as 1.4.2")
        }
        try entity.decode(as: request.operation)
        let upload: [String: Any] = try mutate { state in
            guard state.snapshot.apps.contains(where: { $0.id == appID }) else {
                throw AppStoreConnectProblem.invalidRelationship(
                    "/data/relationships/app/data/id", "There is no resource of type 'apps' with id '\(appID)'", status: 422)
            }
            let taken =
                state.snapshot.builds.contains { existing in
                    existing.appID == appID && existing.version == build
                        && state.snapshot.preReleaseVersions.contains { $0.id == existing.preReleaseVersionID && $0.version == version && $0.platform == platform }
                }
                || state.snapshot.buildUploads.contains {
                    $0.appID == appID && $0.version == version && $0.build == build && $0.platform == platform
                        && ($0.state == "COMPLETE" || $0.state == "PROCESSING")
                }
            if taken {
                throw AppStoreConnectProblem.duplicate(
                    "/data/attributes/cfBundleVersion",
                    "You've already uploaded a build with build number '\(build)' for version number '\(version)'. Make sure you increment the build string before you upload your app to App Store Connect."
                )
            }
            let upload = AppStoreConnectSnapshot.BuildUpload(
                id: UUID().uuidString.lowercased(), appID: appID, version: version, build: build, platform: platform,
                state: "AWAITING_UPLOAD", createdDate: Date()
            )
            state.snapshot.buildUploads.append(upload)
            return buildUploadJSON(upload, files: [])
        }
        return created(upload, "buildUploads")
    }

    /// `CFBundleVersion` / `CFBundleShortVersionString`: one to four period-separated integers (Apple documents three; TestFlight takes four).
    static func isBundleVersion(_ text: String) -> Bool {
        BuildNumberStrategy.isAppStoreBundleVersion(text)
    }

    func getBuildUpload(_ request: APIRequest) throws -> Reply {
        let upload: [String: Any] = try mutate { state in
            guard let index = state.snapshot.buildUploads.firstIndex(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("buildUploads", request.id)
            }
            advanceUpload(at: index, in: &state)
            return buildUploadJSON(state.snapshot.buildUploads[index], files: state.snapshot.files)
        }
        return single(upload, reading: request)
    }

    func deleteBuildUpload(_ request: APIRequest) throws -> Reply {
        let removed: [String] = try mutate { state in
            guard let upload = state.snapshot.buildUploads.first(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("buildUploads", request.id)
            }
            guard upload.state == "AWAITING_UPLOAD" || upload.state == "FAILED" else {
                throw AppStoreConnectProblem.forbidden("A build upload that is \(upload.state) cannot be deleted.")
            }
            let files = state.snapshot.files.filter { $0.uploadID == upload.id }.map(\.id)
            state.snapshot.files.removeAll { $0.uploadID == upload.id }
            state.snapshot.buildUploads.removeAll { $0.id == upload.id }
            return files
        }
        for file in removed { try? FileManager.default.removeItem(atPath: uploadPath(file)) }
        return Reply(status: 204)
    }

    func appBuildUploads(_ request: APIRequest) throws -> Reply {
        let items: [[String: Any]] = try mutate { state in
            guard state.snapshot.apps.contains(where: { $0.id == request.id }) else { throw AppStoreConnectProblem.notFound("apps", request.id) }
            var indices = state.snapshot.buildUploads.indices.filter { index in
                let upload = state.snapshot.buildUploads[index]
                return upload.appID == request.id
                    && request.matches(["cfBundleShortVersionString": upload.version, "cfBundleVersion": upload.build, "platform": upload.platform, "state": upload.state])
            }
            indices = sorted(indices, request) { index, key in
                let upload = state.snapshot.buildUploads[index]
                return key == "cfBundleVersion" ? upload.build : upload.uploadedDate.map(Self.date) ?? ""
            }
            for index in indices { advanceUpload(at: index, in: &state) }
            return indices.map { buildUploadJSON(state.snapshot.buildUploads[$0], files: state.snapshot.files) }
        }
        return page(items, request)
    }

    // MARK: buildUploadFiles

    func uploadFiles(_ request: APIRequest) throws -> Reply {
        let items: [[String: Any]] = try state.withLock { state in
            guard state.snapshot.buildUploads.contains(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("buildUploads", request.id)
            }
            return state.snapshot.files.filter { $0.uploadID == request.id }.map(uploadFileJSON)
        }
        return page(items, request)
    }

    func createUploadFile(_ request: APIRequest) throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "buildUploadFiles")
        let attributes = try entity.attributes(
            ["fileName": .string, "fileSize": .integer(minimum: 1), "uti": .oneOf(Self.utis), "assetType": .oneOf(Self.assetTypes)],
            required: ["fileName", "fileSize", "uti", "assetType"]
        )
        try entity.onlyRelationships(["buildUpload"])
        let uploadID = try entity.relationship("buildUpload", type: "buildUploads", required: true) ?? ""
        let fileSize = (attributes["fileSize"] as? NSNumber)?.int64Value ?? 1
        let assetType = attributes["assetType"] as? String ?? "ASSET"
        let partSize = Int64(configuration.partSize)
        try entity.decode(as: request.operation)
        let (file, replaced): ([String: Any], String?) = try mutate { state in
            guard let upload = state.snapshot.buildUploads.first(where: { $0.id == uploadID }) else {
                throw AppStoreConnectProblem.invalidRelationship(
                    "/data/relationships/buildUpload/data/id", "There is no resource of type 'buildUploads' with id '\(uploadID)'", status: 422)
            }
            guard upload.state == "AWAITING_UPLOAD" else {
                throw AppStoreConnectProblem.state(
                    "The build upload is \(upload.state); files can be added only while it is AWAITING_UPLOAD.",
                    pointer: "/data/relationships/buildUpload")
            }
            // A file of the same asset type still awaiting its bytes is replaced, as a client starting over would want.
            var replaced: String?
            if let existing = state.snapshot.files.first(where: { $0.uploadID == uploadID && $0.assetType == assetType }) {
                guard existing.state == "AWAITING_UPLOAD" else {
                    throw AppStoreConnectProblem.state("The build upload already has a committed \(assetType) file.", pointer: "/data/attributes/assetType")
                }
                state.snapshot.files.removeAll { $0.id == existing.id }
                replaced = existing.id
            }
            let parts = Int((fileSize + partSize - 1) / partSize)
            let file = AppStoreConnectSnapshot.UploadFile(
                id: UUID().uuidString.lowercased(), uploadID: uploadID, fileName: attributes["fileName"] as? String ?? "",
                fileSize: fileSize, uti: attributes["uti"] as? String ?? "", assetType: assetType, state: "AWAITING_UPLOAD",
                partSize: partSize, partTokens: (0..<parts).map { _ in Self.opaqueToken() },
                expiration: Date().addingTimeInterval(7 * 24 * 3600)
            )
            state.snapshot.files.append(file)
            return (uploadFileJSON(file), replaced)
        }
        if let replaced { try? FileManager.default.removeItem(atPath: uploadPath(replaced)) }
        return created(file, "buildUploadFiles")
    }

    static func opaqueToken() -> String {
        Hex.string((0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    func getUploadFile(_ request: APIRequest) throws -> Reply {
        try instance(request, "buildUploadFiles", \.files, id: \.id, render: uploadFileJSON)
    }

    /// The commit: `uploaded: true` when every part arrived; the checksum, when given, is compared with the
    /// stored bytes (a mismatch fails the upload, as Apple's processing would).
    func commitUploadFile(_ request: APIRequest) async throws -> Reply {
        let entity = try AppStoreConnectEntity(request.body, type: "buildUploadFiles", id: request.id)
        let attributes = try entity.attributes(
            ["uploaded": .boolean, "sourceFileChecksums": .checksums], nullable: ["uploaded", "sourceFileChecksums"])
        let checksum = (attributes["sourceFileChecksums"] as? [String: Any])?["file"] as? [String: Any]
        let hash = (checksum?["hash"] as? String)?.lowercased()
        let algorithm = checksum?["algorithm"] as? String
        let uploaded = (attributes["uploaded"] as? NSNumber)?.boolValue == true
        try entity.decode(as: request.operation)
        guard let file = state.withLock({ $0.snapshot.files.first { $0.id == request.id } }) else {
            throw AppStoreConnectProblem.notFound("buildUploadFiles", request.id)
        }
        var actual: String?
        if uploaded, file.state == "AWAITING_UPLOAD", let algorithm, hash != nil {
            let missing = (1...max(1, file.partCount)).filter { !file.received.contains($0) }
            if missing.isEmpty {
                // A file sent in one part was hashed (SHA-256) as it arrived: no second read of a 1 GB file.
                if algorithm == "SHA_256", file.partCount <= 1, let digest = file.partDigests[1] {
                    actual = digest
                } else {
                    actual = try? await Self.digest(of: uploadPath(file.id), algorithm: algorithm)
                }
            }
        }
        let document: [String: Any] = try mutate { state in
            guard let index = state.snapshot.files.firstIndex(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("buildUploadFiles", request.id)
            }
            var file = state.snapshot.files[index]
            if let hash, let algorithm, file.state == "AWAITING_UPLOAD" {
                file.checksumHash = hash
                file.checksumAlgorithm = algorithm
            }
            if uploaded {
                switch file.state {
                case "AWAITING_UPLOAD":
                    try commit(&file, actualDigest: actual, in: &state)
                case "FAILED":
                    throw AppStoreConnectProblem.state("The file failed: \(file.errors.map(\.description).joined(separator: " "))", pointer: "/data/attributes/uploaded")
                default:
                    break  // committed before: the same answer again
                }
            }
            state.snapshot.files[index] = file
            return uploadFileJSON(file)
        }
        return single(document, selfLink: resourceURL("buildUploadFiles", request.id))
    }

    private func commit(_ file: inout AppStoreConnectSnapshot.UploadFile, actualDigest: String?, in state: inout State) throws {
        let missing = (1...max(1, file.partCount)).filter { !file.received.contains($0) }
        guard missing.isEmpty else {
            let list = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            throw AppStoreConnectProblem.state(
                "\(missing.count) of the \(file.partCount) parts have not been uploaded (part \(list)); upload every operation before committing.",
                pointer: "/data/attributes/uploaded")
        }
        guard let uploadIndex = state.snapshot.buildUploads.firstIndex(where: { $0.id == file.uploadID }) else { return }
        if let expected = file.checksumHash, let algorithm = file.checksumAlgorithm, actualDigest?.lowercased() != expected {
            let detail = AppStoreConnectStateDetail(
                code: "CHECKSUM_MISMATCH",
                description:
                    "The \(algorithm) checksum of the uploaded file (\(actualDigest ?? "unreadable")) does not match the checksum provided (\(expected)). Upload the file again."
            )
            file.state = "FAILED"
            file.errors = [detail]
            state.snapshot.buildUploads[uploadIndex].state = "FAILED"
            state.snapshot.buildUploads[uploadIndex].errors = [detail]
            return
        }
        file.state = "UPLOAD_COMPLETE"
        if file.assetType == "ASSET" {
            state.snapshot.buildUploads[uploadIndex].state = "PROCESSING"
            state.snapshot.buildUploads[uploadIndex].uploadedDate = Date()
            state.snapshot.buildUploads[uploadIndex].polls = 0
        }
    }

    /// Lower-case hex digest of the file at `path`: SHA-256 through the shared primitive, MD5 read here.
    static func digest(of path: String, algorithm: String) async throws -> String {
        if algorithm == "SHA_256" { return try await FileDigest.sha256(ofFile: path).hex }
        return try await BlockingWork.run { flag in
            guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
            defer { try? handle.close() }
            var md5 = Insecure.MD5()
            while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
                if flag.isCancelled { throw CancellationError() }
                md5.update(data: data)
            }
            return Hex.string(md5.finalize())
        }
    }

    // MARK: Processing

    /// Counts a read of a processing upload; after ``Configuration/processingPolls`` reads it finishes:
    /// `COMPLETE` with a new `PROCESSING` build, or `FAILED` when a processing fault is armed.
    func advanceUpload(at index: Int, in state: inout State) {
        guard state.snapshot.buildUploads[index].state == "PROCESSING" else { return }
        if state.snapshot.buildUploads[index].polls < configuration.processingPolls {
            state.snapshot.buildUploads[index].polls += 1
            return
        }
        let upload = state.snapshot.buildUploads[index]
        let fault = state.faults.take { $0.matches(operation: nil, part: nil, processing: true) }
        if case .failProcessing(let errors)? = fault?.action {
            state.snapshot.buildUploads[index].state = "FAILED"
            state.snapshot.buildUploads[index].errors = errors
        } else {
            let build = state.snapshot.createBuild(
                appID: upload.appID, version: upload.version, build: upload.build, platform: upload.platform, uploadID: upload.id)
            state.snapshot.buildUploads[index].buildID = state.snapshot.builds[build].id
            state.snapshot.buildUploads[index].state = "COMPLETE"
        }
        state.snapshot.buildUploads[index].polls = 0
        for file in state.snapshot.files.indices where state.snapshot.files[file].uploadID == upload.id && state.snapshot.files[file].state == "UPLOAD_COMPLETE" {
            state.snapshot.files[file].state = "COMPLETE"
        }
    }

    /// Counts a read of a processing build; after ``Configuration/processingPolls`` reads it is `VALID`.
    func advanceBuild(at index: Int, in state: inout State) {
        guard state.snapshot.builds[index].processingState == "PROCESSING" else { return }
        if state.snapshot.builds[index].polls < configuration.processingPolls {
            state.snapshot.builds[index].polls += 1
        } else {
            state.snapshot.setProcessingState("VALID", ofBuildAt: index)
        }
    }
}
