import Foundation
import Testing

@testable import ReleasePipeline

/// Issue 40 F16: `${secrets.X-INJ}` was accepted and exported as `X-INJ: '${{ secrets.X-INJ }}'`, a name GitHub
/// secrets cannot have (empty at run time). A secret's name is letters, digits and `_`, not starting with a digit.
@Suite struct SecretNameTests {
    @Test(arguments: ["X-INJ", "1TOKEN", "A.B", "TÖKEN"])
    func aNameNoSecretStoreHasIsRefused(name: String) {
        #expect(throws: Template.ParseError.self) { try Template(parsing: "${secrets.\(name)}") }
        #expect(
            Template.scan("${secrets.\(name)}").contains { result in
                if case .failure(let error) = result {
                    return error.message.hasSuffix("': letters, digits and '_', not starting with a digit")
                }
                return false
            })
    }

    @Test func ordinaryNamesAreAccepted() throws {
        for name in ["APP_STORE_CONNECT_KEY", "token2", "_X"] {
            #expect(try Template(parsing: "${secrets.\(name)}").wholeReference == .secret(name))
        }
    }
}
