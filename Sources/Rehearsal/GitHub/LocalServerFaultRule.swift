/// When to inject a ``LocalServerFault``: on the `occurrence`-th request matching the route (and method and
/// path fragment, when given), for `times` requests in a row.
package struct LocalServerFaultRule: Sendable, Equatable {
    package var route: LocalServerRoute?
    package var method: String?
    package var pathContains: String?
    /// 1 = the first matching request.
    package var occurrence: Int
    /// How many matching requests (from `occurrence` on) get the fault.
    package var times: Int
    package var fault: LocalServerFault

    package init(
        route: LocalServerRoute? = nil,
        method: String? = nil,
        pathContains: String? = nil,
        occurrence: Int = 1,
        times: Int = 1,
        fault: LocalServerFault
    ) {
        self.route = route
        self.method = method
        self.pathContains = pathContains
        self.occurrence = max(1, occurrence)
        self.times = max(1, times)
        self.fault = fault
    }

    /// The fault on the `occurrence`-th asset upload.
    package static func upload(_ fault: LocalServerFault, occurrence: Int = 1, times: Int = 1) -> Self {
        Self(route: .uploadAsset, occurrence: occurrence, times: times, fault: fault)
    }

    func matches(method requestMethod: String, path: String, route requestRoute: LocalServerRoute) -> Bool {
        if let route, route != requestRoute { return false }
        if let method, method.uppercased() != requestMethod.uppercased() { return false }
        if let pathContains, !path.contains(pathContains) { return false }
        return true
    }
}
