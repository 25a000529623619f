import Foundation

/// The star ratings of an App Store version's customer reviews: how many, and their average.
///
/// The API has no ratings resource: each `customerReviews` item of the version carries its `rating` (1 to 5), and
/// the average is computed here. Reviews are read newest first, 200 a page, at most ``pageLimit`` pages: a version
/// with more reviews than that is judged on its newest ones.
package struct AppStoreRatings: Sendable, Equatable, Codable {
    /// Reviews with a rating.
    package var count: Int
    /// Their mean rating (1 to 5); nil without reviews.
    package var average: Double?

    package init(count: Int, average: Double?) {
        self.count = count
        self.average = average
    }

    /// At most this many pages of 200 reviews are read.
    package static let pageLimit = 25

    /// The ratings of the reviews of App Store version `versionID` (`GET /v1/appStoreVersions/{id}/customerReviews`).
    package static func read(versionID: String, client: AppStoreConnectClient) async throws -> AppStoreRatings {
        var next: String? = AppStoreConnectClient.path(
            "/v1/appStoreVersions/\(versionID)/customerReviews",
            [("fields[customerReviews]", "rating,createdDate"), ("sort", "-createdDate"), ("limit", "200")])
        var ratings: [Int] = []
        var seen: Set<String> = []
        while let current = next, seen.count < pageLimit, seen.insert(current).inserted {
            let page = try client.decode(CollectionPage<Resource<CustomerReviewAttributes>>.self, try await client.send("GET", current), path: current)
            ratings += page.data.compactMap { $0.attributes?.rating }.filter { (1...5).contains($0) }
            next = page.links?.next
        }
        return AppStoreRatings(count: ratings.count, average: ratings.isEmpty ? nil : Double(ratings.reduce(0, +)) / Double(ratings.count))
    }
}
