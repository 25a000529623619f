import Foundation
import Testing

/// `release validate` holds a plugin step's options to the plugin's own schema, with the messages, lines and exit
/// code of built-in steps.
@Suite struct PluginValidateTests {
    /// A directory holding `release-step-notify` (its `channel` option required, no other keys allowed) and
    /// `pipeline.json` with `steps` and `variables`.
    static func project(steps: String, variables: String = "{}") throws -> String {
        let directory = ReleaseBinary.temporaryDirectory()
        let plugin = "\(directory)/release-step-notify"
        try """
        #!/bin/sh
        if [ "$1" = describe ]; then
          echo '{"protocol": 1, "kind": "notify", "options": {"type": "object", "required": ["channel"], "additionalProperties": false, "properties": {"channel": {"type": "string"}, "count": {"type": "integer"}}}}'
          exit 0
        fi
        echo '{"type": "result", "ok": true}'
        """.write(toFile: plugin, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: plugin)
        try """
        {"version": 1, "plugins": {"notify": "./release-step-notify"}, "variables": \(variables),
         "steps": [
        \(steps)
         ]}
        """.write(toFile: "\(directory)/pipeline.json", atomically: true, encoding: .utf8)
        return directory
    }

    static func validate(_ directory: String) throws -> ReleaseBinary.Outcome {
        // The describe cache goes to the test's folder, not the user's.
        try ReleaseBinary.run(["validate", "pipeline.json"], in: directory, environment: ["XDG_CACHE_HOME": "\(directory)/cache"])
    }

    @Test func aMisspeltRequiredOptionIsOneUnknownOptionAtItsLine() throws {
        let directory = try Self.project(steps: #"  {"id": "post", "uses": "notify", "with": {"chanel": "releases"}}"#)
        let outcome = try Self.validate(directory)
        #expect(outcome.status == 65)
        #expect(
            outcome.stderr == """
                pipeline.json:3:45: error: $.steps[0].with.chanel: step 'post': unknown option 'chanel' for notify (did you mean 'channel'?)
                pipeline.json: 1 problem

                """)
    }

    @Test func everyWrongTypeOfAStepIsReported() throws {
        let directory = try Self.project(steps: #"  {"id": "post", "uses": "notify", "with": {"channel": 42, "count": 1.5}}"#)
        let outcome = try Self.validate(directory)
        #expect(outcome.status == 65)
        #expect(
            outcome.stderr == """
                pipeline.json:3:56: error: $.steps[0].with.channel: step 'post' (notify): expected a string, found a number 42
                pipeline.json:3:69: error: $.steps[0].with.count: step 'post' (notify): expected a whole number, found a number 1.5
                pipeline.json: 2 problems

                """)
    }

    @Test func optionsTheSchemaAcceptsValidate() throws {
        let directory = try Self.project(
            steps: #"  {"id": "post", "uses": "notify", "with": {"channel": "releases", "count": "${count}"}}"#,
            variables: #"{"count": "2"}"#)
        let outcome = try Self.validate(directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }
}
