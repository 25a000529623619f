import Foundation
import Testing

@testable import ReleaseVersioning

extension VersioningTests {
    @Suite struct VersioningParserTests {
        private func write(_ files: [String: String]) throws -> String {
            let folder = try XcodeFixture.temporaryDirectory()
            for (name, text) in files {
                let path = folder + "/" + name
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            }
            return folder
        }

        @Test func openStepPlistRecordsLinesRangesAndQuoting() throws {
            let text = "// !$*UTF8*$!\n{\n\tA = 1.0;\n\t\"B\" = \"2 0\"; /* note */\n\tC = (\n\t\tx,\n\t\t\"y\\\"z\",\n\t);\n\tD = {E = <0fbd 77>;};\n}\n"
            let plist = try OpenStepPlist(bytes: Array(text.utf8), path: "p.pbxproj")
            let root = try #require(plist.root.dictionary)
            let a = try #require(root["A"]?.text)
            #expect(a.value == "1.0")
            #expect(a.line == 3)
            #expect(!a.quoted)
            #expect(String(decoding: plist.bytes[a.range], as: UTF8.self) == "1.0")
            let b = try #require(root["B"]?.text)
            #expect(b.value == "2 0")
            #expect(b.quoted)
            #expect(String(decoding: plist.bytes[b.range], as: UTF8.self) == "\"2 0\"")
            #expect(root["C"]?.array?.compactMap(\.string) == ["x", "y\"z"])
            #expect(root["D"]?.dictionary?.line == 9)
        }

        @Test func openStepPlistErrorsNameTheLine() {
            let text = "{\n\tA = 1;\n\tB = 2\n}\n"
            #expect(throws: VersioningError.syntax(file: "p.pbxproj", line: 4, message: "expected ';' after the value of 'B', found '}'")) {
                try OpenStepPlist(bytes: Array(text.utf8), path: "p.pbxproj")
            }
            #expect(throws: VersioningError.syntax(file: "p.pbxproj", line: 2, message: "unterminated string")) {
                try OpenStepPlist(bytes: Array("{\n A = \"x;\n}".utf8), path: "p.pbxproj")
            }
        }

        @Test func xcconfigSyntaxIncludesAndConditions() throws {
            let folder = try write([
                "A.xcconfig":
                    "// top\n#include \"sub/B.xcconfig\"\n#include? \"Missing.xcconfig\"\nKEY=value\nSPACED = a b // comment\nQUOTED = \"1.0\";\nKEY[sdk=iphoneos*] = device\nLIST = $(inherited) -x\n",
                "sub/B.xcconfig": "FROM_B = b\r\n",
            ])
            let file = try XCConfigFile(contentsOf: folder + "/A.xcconfig")
            let keys = file.assignments.map { "\($0.key)\($0.condition.map { "[\($0)]" } ?? "")=\($0.value)@\(($0.site.path as NSString).lastPathComponent):\($0.site.line ?? 0)" }
            #expect(
                keys == [
                    "FROM_B=b@B.xcconfig:1", "KEY=value@A.xcconfig:4", "SPACED=a b@A.xcconfig:5", "QUOTED=1.0@A.xcconfig:6",
                    "KEY[sdk=iphoneos*]=device@A.xcconfig:7", "LIST=$(inherited) -x@A.xcconfig:8",
                ])
            let quoted = try #require(file.assignments.first { $0.key == "QUOTED" })
            #expect(quoted.site.quoted)
        }

        /// Xcode warns about a missing `#include` and reads on; so does the engine, recording where it was.
        @Test func xcconfigMissingRequiredIncludeIsAHoleNamingFileAndLine() throws {
            let folder = try write(["A.xcconfig": "A = 1\n#include \"Gone.xcconfig\"\nB = 2\n"])
            let path = folder + "/A.xcconfig"
            let file = try XCConfigFile(contentsOf: path)
            #expect(file.assignments.map(\.key) == ["A", "B"])
            #expect(
                file.missing == [
                    BuildSettings.Layer.Hole(
                        file: MissingFile(path: folder + "/Gone.xcconfig", reference: .include, referencedAt: path + ":2"), after: 1
                    )
                ])
        }

        @Test func xcconfigCyclesAndGarbageAreErrors() throws {
            let folder = try write(["A.xcconfig": "#include \"B.xcconfig\"\n", "B.xcconfig": "#include \"A.xcconfig\"\n", "C.xcconfig": "\nthis is not a setting\n"])
            #expect(throws: VersioningError.includeCycle(file: folder + "/B.xcconfig", line: 1, chain: ["A.xcconfig", "B.xcconfig", "A.xcconfig"])) {
                try XCConfigFile(contentsOf: folder + "/A.xcconfig")
            }
            #expect(throws: VersioningError.syntax(file: folder + "/C.xcconfig", line: 2, message: "expected '=' after 'this', found 'this is not a setting'")) {
                try XCConfigFile(contentsOf: folder + "/C.xcconfig")
            }
        }

        @Test func buildSettingsLayerLikeXcode() throws {
            func define(_ key: String, _ value: String, line: Int, condition: String? = nil) -> SettingDefinition {
                SettingDefinition(
                    key: key, condition: condition, value: value,
                    site: ValueSite(
                        path: "f", line: line, key: key, format: .xcconfig, range: 0..<1, quoted: false, rawValue: value))
            }
            let settings = BuildSettings(
                layers: [
                    [
                        define("FLAGS", "$(inherited) -target", line: 1), define("MARKETING_VERSION", "$(inherited)", line: 2),
                        define("NAME", "${TARGET_NAME}-$(CONFIGURATION)", line: 3),
                    ],
                    [define("FLAGS", "-xcconfig", line: 10), define("LOOP", "$(LOOP) x", line: 11), define("A", "$(B)", line: 12), define("B", "$(A)", line: 13)],
                    [
                        define("FLAGS", "$(inherited) -project", line: 20), define("MARKETING_VERSION", "$(APP_VERSION)", line: 21),
                        define("APP_VERSION", "3.0.0", line: 22), define("APP_VERSION", "9.9.9", line: 23, condition: "sdk=iphonesimulator*"),
                    ],
                    [],
                ],
                defaults: ["TARGET_NAME": "Demo", "CONFIGURATION": "Release"]
            )
            #expect(try settings.value(of: "FLAGS") == "-xcconfig -target")
            #expect(try settings.value(of: "MARKETING_VERSION") == "3.0.0")
            #expect(try settings.value(of: "NAME") == "Demo-Release")
            #expect(try settings.expand("$(MISSING:default=fallback)/$(TARGET_NAME:lower)") == "fallback/demo")
            #expect(try settings.value(of: "LOOP") == " x")
            #expect(try settings.value(of: "A") == "")
            #expect(try settings.expand("$(unterminated") == "$(unterminated")
            let origin = settings.origin(of: "MARKETING_VERSION")
            #expect(origin?.site.line == 22)
            #expect(origin?.editable == true)
            #expect(settings.origin(of: "FLAGS")?.editable == false)
        }

        /// Xcode 16 projects name an .xcconfig inside a synchronized folder by anchor and relative path.
        @Test func xcode16SynchronizedFolders() throws {
            let pbxproj = """
                // !$*UTF8*$!
                {
                \tarchiveVersion = 1;
                \tobjectVersion = 77;
                \tobjects = {
                \t\tAA0000000000000000000001 /* Project object */ = {
                \t\t\tisa = PBXProject;
                \t\t\tbuildConfigurationList = AA0000000000000000000002;
                \t\t\tmainGroup = AA0000000000000000000003;
                \t\t\ttargets = (AA0000000000000000000004 /* Sync */,);
                \t\t};
                \t\tAA0000000000000000000002 = {isa = XCConfigurationList; buildConfigurations = (AA0000000000000000000005,); defaultConfigurationName = Release; };
                \t\tAA0000000000000000000005 = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Release; };
                \t\tAA0000000000000000000003 = {isa = PBXGroup; children = (AA0000000000000000000006 /* Sync */,); sourceTree = "<group>"; };
                \t\tAA0000000000000000000006 /* Sync */ = {isa = PBXFileSystemSynchronizedRootGroup; path = Sync; sourceTree = "<group>"; };
                \t\tAA0000000000000000000004 /* Sync */ = {
                \t\t\tisa = PBXNativeTarget;
                \t\t\tbuildConfigurationList = AA0000000000000000000007;
                \t\t\tname = Sync;
                \t\t\tproductType = "com.apple.product-type.application";
                \t\t};
                \t\tAA0000000000000000000007 = {isa = XCConfigurationList; buildConfigurations = (AA0000000000000000000008,); defaultConfigurationName = Release; };
                \t\tAA0000000000000000000008 = {
                \t\t\tisa = XCBuildConfiguration;
                \t\t\tbaseConfigurationReferenceAnchor = AA0000000000000000000006 /* Sync */;
                \t\t\tbaseConfigurationReferenceRelativePath = Config/App.xcconfig;
                \t\t\tbuildSettings = {GENERATE_INFOPLIST_FILE = YES; INFOPLIST_KEY_CFBundleShortVersionString = "$(APP_VERSION)"; };
                \t\t\tname = Release;
                \t\t};
                \t};
                \trootObject = AA0000000000000000000001 /* Project object */;
                }

                """
            let folder = try write([
                "Sync.xcodeproj/project.pbxproj": pbxproj,
                "Sync/Config/App.xcconfig": "APP_VERSION = 5.2\nCURRENT_PROJECT_VERSION = 12\n",
            ])
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let report = try VersionReader.read(in: folder).report
            let entry = try #require(report.entries.first)
            #expect(entry.infoPlist == "generated")
            #expect(entry.version == "5.2")
            #expect(entry.versionDefinedAt == DefinitionLocation(file: "Sync/Config/App.xcconfig", line: 1, key: "APP_VERSION"))
            #expect(entry.build == "12")
            #expect(entry.buildDefinedAt == DefinitionLocation(file: "Sync/Config/App.xcconfig", line: 2, key: "CURRENT_PROJECT_VERSION"))
        }

        @Test func infoPlistLocatesTopLevelStrings() throws {
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                \t<key>NSExtension</key>
                \t<dict>
                \t\t<key>CFBundleVersion</key>
                \t\t<string>nested</string>
                \t</dict>
                \t<!-- <key>CFBundleVersion</key><string>comment</string> -->
                \t<key>CFBundleShortVersionString</key>
                \t<string>$(MARKETING_VERSION)</string>
                \t<key>CFBundleVersion</key>
                \t<string>4146</string>
                \t<key>Empty</key>
                \t<string/>
                </dict>
                </plist>

                """
            let folder = try write(["Info.plist": xml])
            let plist = try InfoPlistFile(contentsOf: folder + "/Info.plist")
            #expect(!plist.isBinary)
            #expect(plist.sites["CFBundleVersion"]?.line == 14)
            #expect(plist.sites["CFBundleVersion"]?.rawValue == "4146")
            #expect(plist.sites["CFBundleShortVersionString"]?.line == 12)
            #expect(plist.strings["CFBundleShortVersionString"] == "$(MARKETING_VERSION)")
        }

        /// An Info.plist string and a scheme's attribute are decoded alike, numeric references included: the two
        /// readers share one decoder, so a value reads the same wherever Xcode keeps it.
        @Test func infoPlistAndSchemeDecodeCharacterReferencesAlike() throws {
            let encoded = "R&amp;D &#8211; &#x31;.0 &lt;beta&gt;"
            let decoded = "R&D \u{2013} 1.0 <beta>"
            let xml = "<plist version=\"1.0\"><dict><key>CFBundleDisplayName</key><string>\(encoded)</string></dict></plist>\n"
            let folder = try write(["Info.plist": xml])
            let plist = try InfoPlistFile(contentsOf: folder + "/Info.plist")
            #expect(plist.strings["CFBundleDisplayName"] == decoded)
            let tags = XMLStartTags.scan("<Scheme><BuildableReference BlueprintName = \"\(encoded)\"/></Scheme>")
            #expect(tags.last?.attributes["BlueprintName"] == decoded)
            #expect(XMLEntities.decode(XMLEntities.escape("a & <b>")) == "a & <b>")
            #expect(XMLEntities.decode("&bogus; &#xZZ; & no end") == "&bogus; &#xZZ; & no end")
        }

        /// INFOPLIST_PREPROCESS: directives and branches not taken become blanks of the same length, so offsets
        /// and lines stay those of the file on disk.
        @Test func plistPreprocessorKeepsOffsets() throws {
            let text = """
                <dict>
                #if defined(INTUNE) && !defined(LITE)
                	<key>A</key><string>intune</string>
                #elif LEVEL > 1
                	<key>A</key><string>level</string>
                #else
                	<key>A</key><string>plain</string>
                #endif
                #ifndef INTUNE
                	<key>B</key><string>no-intune</string>
                #endif
                </dict>

                """
            func run(_ definitions: [String]) throws -> String {
                let output = try PlistPreprocessor.process(Array(text.utf8), definitions: definitions, path: "Info.plist")
                #expect(output.count == text.utf8.count)
                return String(decoding: output, as: UTF8.self)
            }
            func kept(_ output: String) -> [String] {
                output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            #expect(kept(try run(["INTUNE"])) == ["<dict>", "<key>A</key><string>intune</string>", "</dict>"])
            #expect(kept(try run(["INTUNE", "LITE", "LEVEL=2"])) == ["<dict>", "<key>A</key><string>level</string>", "</dict>"])
            #expect(kept(try run([])) == ["<dict>", "<key>A</key><string>plain</string>", "<key>B</key><string>no-intune</string>", "</dict>"])
            #expect(try run([]).components(separatedBy: "\n").count == text.components(separatedBy: "\n").count)
            #expect(throws: VersioningError.syntax(file: "Info.plist", line: 1, message: "'#endif' without '#if'")) {
                try PlistPreprocessor.process(Array("#endif\n".utf8), definitions: [], path: "Info.plist")
            }
        }

        @Test func versionFiles() throws {
            let folder = try write([
                "VERSION": "3.0\n", "version.rb": "module Demo\n  VERSION = \"7.1.3b5\".freeze # since 2014\nend\n", "two.txt": "1.0 and 2.0\n", "none.txt": "no version here\n",
            ])
            let plain = try VersionFile(contentsOf: folder + "/VERSION")
            #expect(plain.version == "3.0")
            #expect(plain.build == nil)
            let ruby = try VersionFile(contentsOf: folder + "/version.rb")
            #expect(ruby.version == "7.1.3b5")
            #expect(ruby.versionSite.line == 2)
            #expect(throws: VersioningError.versionNotFound(file: folder + "/two.txt", found: 2)) { try VersionFile(contentsOf: folder + "/two.txt") }
            #expect(throws: VersioningError.versionNotFound(file: folder + "/none.txt", found: 0)) { try VersionFile(contentsOf: folder + "/none.txt") }

            let versions = try VersionReader.read(file: "version.rb", in: folder)
            let plan = try BumpPlanner.plan(versions, choice: .part(.patch), build: nil)
            try FileTransaction.apply(plan.files)
            #expect(try String(contentsOfFile: folder + "/version.rb", encoding: .utf8) == "module Demo\n  VERSION = \"7.1.3\".freeze # since 2014\nend\n")
        }

        /// A missing Info.plist is a warning naming the setting's line and the values it leaves unknown.
        @Test func missingInfoPlistIsAWarningNamingTheSetting() throws {
            let folder = try XcodeFixture(name: "literal-plist").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try FileManager.default.removeItem(atPath: folder + "/Classic/Info.plist")
            let report = try VersionReader.read(in: folder).report
            #expect(report.version == nil)
            let warning = try #require(report.warnings?.first)
            #expect(warning.hasPrefix("Classic.xcodeproj/project.pbxproj:"))
            #expect(warning.hasSuffix(": Info.plist 'Classic/Info.plist' does not exist; the version and build of 'Classic' (Debug, Release) are unknown"))
        }

        @Test func composedValuesAreNotEditable() throws {
            let folder = try XcodeFixture(name: "xcconfig-chain").copy()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try "APP_VERSION=$(BASE).0\nBASE=3.0\nAPP_BUILD=4146\n".write(toFile: folder + "/Config/Version.xcconfig", atomically: true, encoding: .utf8)
            let versions = try VersionReader.read(in: folder)
            #expect(versions.report.version == "3.0.0")
            #expect(throws: VersioningError.notEditable(location: "Config/Version.xcconfig:1", key: "APP_VERSION", value: "$(BASE).0")) {
                try BumpPlanner.plan(versions, choice: .part(.minor), build: nil)
            }
        }
    }
}
