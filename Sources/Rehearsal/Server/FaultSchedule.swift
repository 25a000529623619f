/// The faults armed on one server: each rule fires on its `occurrence`-th matching request, for `times`
/// matching requests in a row.
///
/// Generic over the rule, so each server matches requests its own way (the GitHub server by route) while
/// the counting is shared. Rules are checked in the order added; every matching rule counts the request and
/// the first one that is due fires. Not thread-safe: a server keeps it inside its state lock.
struct FaultSchedule<Rule: Sendable>: Sendable {
    private struct Armed: Sendable {
        var rule: Rule
        var occurrence: Int
        var times: Int
        var seen = 0
        var fired = 0
    }

    private var armed: [Armed] = []

    /// Arms `rule`; `occurrence` 1 is the first matching request.
    mutating func add(_ rule: Rule, occurrence: Int, times: Int) {
        armed.append(Armed(rule: rule, occurrence: max(1, occurrence), times: max(1, times)))
    }

    /// Counts a request against every rule `matches` accepts; returns the rule that fires for it, if any.
    mutating func take(where matches: (Rule) -> Bool) -> Rule? {
        var chosen: Rule?
        for index in armed.indices where matches(armed[index].rule) {
            armed[index].seen += 1
            let entry = armed[index]
            if chosen == nil, entry.seen >= entry.occurrence, entry.fired < entry.times {
                armed[index].fired += 1
                chosen = entry.rule
            }
        }
        return chosen
    }

    /// Rules not yet injected as often as asked.
    var pending: [Rule] { armed.filter { $0.fired < $0.times }.map(\.rule) }

    /// Disarms every rule.
    mutating func removeAll() { armed.removeAll() }
}
