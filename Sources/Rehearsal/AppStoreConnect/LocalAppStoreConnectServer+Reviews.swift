import Foundation
import ReleaseSupport

/// Customer reviews of an App Store version (`GET /v1/appStoreVersions/{id}/customerReviews`, Apple's 4.4.1
/// contract), and seeding for a rollout: a released version with a phased release on a given day, and its reviews.
extension LocalAppStoreConnectServer {
    func customerReviews(_ request: APIRequest) throws -> Reply {
        let reviews: [AppStoreConnectSnapshot.CustomerReview] = try state.withLock { state in
            guard state.snapshot.appStoreVersions.contains(where: { $0.id == request.id }) else {
                throw AppStoreConnectProblem.notFound("appStoreVersions", request.id)
            }
            var found = state.snapshot.customerReviews.filter {
                $0.versionID == request.id && request.matches(["rating": String($0.rating), "territory": $0.territory])
            }
            switch request.query["sort"] {
            case "rating": found.sort { $0.rating < $1.rating }
            case "-rating": found.sort { $0.rating > $1.rating }
            case "createdDate": found.sort { $0.createdDate < $1.createdDate }
            default: found.sort { $0.createdDate > $1.createdDate }
            }
            return found
        }
        return page(reviews.map(customerReviewJSON), request)
    }

    func customerReviewJSON(_ review: AppStoreConnectSnapshot.CustomerReview) -> [String: Any] {
        [
            "type": "customerReviews", "id": review.id,
            "attributes": [
                "rating": review.rating, "title": review.title, "body": review.body, "reviewerNickname": review.reviewerNickname,
                "createdDate": Self.date(review.createdDate), "territory": review.territory,
            ] as [String: Any],
            "links": ["self": resourceURL("customerReviews", review.id)],
        ]
    }

    /// Adds reviews with `ratings` (1 to 5 stars each) to the version of `bundleID`; false when there is no such
    /// version.
    @discardableResult
    package func addCustomerReviews(bundleID: String, version: String, platform: ApplePlatform = .iOS, ratings: [Int]) -> Bool {
        mutate { state in
            guard let versionID = Self.versionID(bundleID: bundleID, version: version, platform: platform.appStoreConnect, in: state.snapshot) else { return false }
            for (number, rating) in ratings.enumerated() {
                state.snapshot.customerReviews.append(
                    .init(
                        id: UUID().uuidString.lowercased(), versionID: versionID, rating: min(max(rating, 1), 5), title: "Review \(number + 1)",
                        body: "\(rating) stars", reviewerNickname: "tester\(number + 1)", territory: "USA",
                        createdDate: Date().addingTimeInterval(Double(number))))
            }
            return true
        }
    }

    /// Puts the version of `bundleID` on sale with a phased release in `state` (ACTIVE, PAUSED, COMPLETE) on `day`
    /// (1 to 7), creating the version and the phased release as needed: a rollout in progress, for the guard. `build`
    /// attaches the app's build of that number (added with ``addBuild(bundleID:version:build:processingState:)``).
    package func setPhasedRelease(bundleID: String, version: String, platform: ApplePlatform = .iOS, build: String? = nil, state phasedState: String, day: Int) {
        mutate { state in
            var versionID = Self.versionID(bundleID: bundleID, version: version, platform: platform.appStoreConnect, in: state.snapshot)
            if versionID == nil {
                let appID = state.snapshot.app(bundleID: bundleID, name: bundleID)
                let index = Self.newVersion(appID: appID, platform: platform.appStoreConnect, versionString: version, releaseType: "AFTER_APPROVAL", in: &state.snapshot)
                versionID = state.snapshot.appStoreVersions[index].id
            }
            guard let versionID, let index = state.snapshot.appStoreVersions.firstIndex(where: { $0.id == versionID }) else { return }
            state.snapshot.appStoreVersions[index].appStoreState = "READY_FOR_SALE"
            let appID = state.snapshot.appStoreVersions[index].appID
            if let build, let found = state.snapshot.builds.first(where: { $0.appID == appID && $0.version == build }) {
                state.snapshot.appStoreVersions[index].buildID = found.id
            }
            let phased = state.snapshot.phasedReleases.firstIndex(where: { $0.versionID == versionID })
            let record = AppStoreConnectSnapshot.PhasedRelease(
                id: phased.map { state.snapshot.phasedReleases[$0].id } ?? UUID().uuidString.lowercased(), versionID: versionID, state: phasedState,
                startDate: Date().addingTimeInterval(-86_400 * Double(max(day - 1, 0))), currentDayNumber: day, totalPauseDuration: 0)
            if let phased { state.snapshot.phasedReleases[phased] = record } else { state.snapshot.phasedReleases.append(record) }
        }
    }

    /// The phased release's state and day of the version of `bundleID`, nil without one.
    package func phasedRelease(bundleID: String, version: String, platform: ApplePlatform = .iOS) -> (state: String, day: Int)? {
        state.withLock { state in
            guard let versionID = Self.versionID(bundleID: bundleID, version: version, platform: platform.appStoreConnect, in: state.snapshot),
                let phased = state.snapshot.phasedReleases.first(where: { $0.versionID == versionID })
            else { return nil }
            return (phased.state, phased.currentDayNumber ?? 0)
        }
    }

    static func versionID(bundleID: String, version: String, platform: String, in snapshot: AppStoreConnectSnapshot) -> String? {
        guard let appID = snapshot.apps.first(where: { $0.bundleID == bundleID })?.id else { return nil }
        return snapshot.appStoreVersions.first { $0.appID == appID && $0.versionString == version && $0.platform == platform }?.id
    }
}
