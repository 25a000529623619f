/// What a ``LocalHTTPServer`` serves: one service's endpoints (GitHub, a recording endpoint, …).
///
/// Implementation requirements:
/// - ``respond(to:)`` is called once per request, on the connection's task, which runs on the connection's
///   event loop; requests of one connection come one after another, different connections concurrently, so
///   shared state needs a lock.
/// - Read the body through the exchange (or leave it: the server skips what is left before the next request),
///   then answer once, or drop the connection with one of the exchange's faults. An exchange left without an
///   answer is recorded with status 0 and its connection closed.
/// - Move bodies and files through ``PooledFile``: a blocking call here holds up every connection of the
///   event loop. (Writing a state file of a few kilobytes directly is fine.)
protocol LocalHTTPResponder: Sendable {
    /// Serves one request.
    func respond(to exchange: ServerExchange) async
}
