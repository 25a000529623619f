import ArgumentParser

/// `@Option` in this target is swift-argument-parser's command-line option. ReleaseKit declares step options with
/// an `@Option` of its own (`ReleaseKit.Option`); a declaration in this module wins over both imports, so command
/// files keep writing `@Option`.
typealias Option<Value> = ArgumentParser.Option<Value>
