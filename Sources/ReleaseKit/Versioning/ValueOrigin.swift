/// Where a resolved value really comes from: the definition that holds its literal text.
///
/// An Info.plist that says `$(MARKETING_VERSION)` has its origin where `MARKETING_VERSION` is defined;
/// `MARKETING_VERSION = $(inherited)` in a target points on to the project's definition.
package struct ValueOrigin: Sendable, Hashable {
    /// The definition holding the text.
    package var site: ValueSite
    /// Whether the text is a literal a bump can replace (no `$(…)` in it).
    package var editable: Bool

    /// Creates a value from its parts.
    package init(site: ValueSite, editable: Bool) {
        self.site = site
        self.editable = editable
    }
}
