import DefaultEntryMacros
import SwiftSyntaxMacros
import Testing

private func expand(_ source: String) -> MacroExpansion {
  MacroExpansion(source, macros: ["DefaultEntry": DefaultEntryMacro.self])
}

@Suite struct DefaultEntryExpansionTests {
  @Test func entryWithDefaultExpandsToKeyAndAccessors() {
    let result = expand(
      """
      extension UserDefaults {
        @DefaultEntry(default: "defaultValue")
        var exampleWithDefault: String
      }
      """)
    #expect(result.diagnostics.isEmpty)
    #expect(
      result.expandedSource == """
        extension UserDefaults {
          var exampleWithDefault: String {
            get {
              UserDefaults.exampleWithDefaultKey.value(in: self)
            }
            set {
              UserDefaults.exampleWithDefaultKey.store(newValue, in: self)
            }
          }

          /// The key behind `exampleWithDefault`: its stored name, default, removal and observation.
          nonisolated static let exampleWithDefaultKey = UserDefaults.Key<String>("key_exampleWithDefault", default: "defaultValue", file: "TestModule/Test.swift", line: 2)
        }
        """)
  }

  @Test func optionalEntryWithPrefixHasNoDefault() {
    let result = expand(
      """
      extension UserDefaults {
        @DefaultEntry<Int>(prefixedWith: "customPrefix_")
        public var exampleIntWithoutDefault: Int?
      }
      """)
    #expect(result.diagnostics.isEmpty)
    #expect(
      result.expandedSource.contains(
        "public nonisolated static let exampleIntWithoutDefaultKey = UserDefaults.Key<Int?>(\"customPrefix_exampleIntWithoutDefault\", file:"
      ))
  }

  @Test func explicitKeyIsUsedAsWritten() {
    let result = expand(
      """
      extension UserDefaults {
        @DefaultEntry("com.example.launches", default: 0)
        var launches: Int
      }
      """)
    #expect(result.diagnostics.isEmpty)
    #expect(
      result.expandedSource.contains("UserDefaults.Key<Int>(\"com.example.launches\", default: 0"))
  }

  @Test func nonLiteralPrefixIsConcatenated() {
    let result = expand(
      """
      extension UserDefaults {
        @DefaultEntry<String>(prefixedWith: AppPrefix.value)
        var name: String?
      }
      """)
    #expect(result.diagnostics.isEmpty)
    #expect(
      result.expandedSource.contains("UserDefaults.Key<String?>((AppPrefix.value) + \"name\""))
  }

  @Test(
    arguments: [
      (
        "@DefaultEntry(default: 1)\n  let count: Int",
        "@DefaultEntry needs 'var', not 'let': the entry is read and written"
      ),
      (
        "@DefaultEntry(default: 1)\n  var count: Int = 2",
        "'count' cannot have an initial value; write the default in the attribute: @DefaultEntry(default: 2)"
      ),
      (
        "@DefaultEntry\n  var count = 2",
        "@DefaultEntry needs the type of 'count' written out and the initial value as the default: '@DefaultEntry(default: 2) var count: Type'"
      ),
      (
        "@DefaultEntry\n  var count: Int = 3",
        "'count' cannot have an initial value; write the default in the attribute: @DefaultEntry(default: 3)"
      ),
      (
        "@DefaultEntry<Int>\n  var count: Int",
        "'count' has the non-optional type 'Int' and no default; add 'default:' to the attribute or declare it as 'Int?'"
      ),
      (
        "@DefaultEntry(default: \"one\")\n  var count: Int",
        "the default is a string literal, which cannot be of type 'Int'; give a default of type 'Int'"
      ),
      (
        "@DefaultEntry(default: nil)\n  var count: Int",
        "the default is nil, which cannot be of type 'Int'; give a default of type 'Int'"
      ),
      (
        "@DefaultEntry<String>\n  var count: Int?",
        "@DefaultEntry<String> does not match the declared type 'Int?'; make them the same"
      ),
      (
        "@DefaultEntry(default: 1)\n  static var count: Int",
        "@DefaultEntry declares an instance property of UserDefaults; remove 'static'"
      ),
    ])
  func mistakesAreReportedWithTheirFix(declaration: String, message: String) {
    let result = expand("extension UserDefaults {\n  \(declaration)\n}")
    #expect(result.diagnostics == [message])
  }

  @Test func errorsPointAtTheMistakeInTheSource() {
    let result = expand(
      """
      extension UserDefaults {
        @DefaultEntry<String> var count: Int?
        @DefaultEntry(default: "one") var other: Int
      }
      """)
    #expect(result.locations == ["2:17", "3:26"])
  }

  @Test func aDeclarationWithAnErrorStillGetsAccessors() {
    // Without them the compiler would add "did not produce a non-observing accessor" and
    // "extensions must not contain stored properties" beside the macro's error.
    let result = expand(
      """
      extension UserDefaults {
        @DefaultEntry(default: "one")
        var count: Int
      }
      """)
    #expect(result.severities == [.error])
    #expect(result.expandedSource.contains("get {"))
    #expect(result.expandedSource.contains("set {"))
    #expect(!result.expandedSource.contains("countKey"))
  }

  @Test func letIsANoteAndGetsTheGetterAlone() {
    // The compiler reports one error per accessor on a 'let'; the macro's note carries the
    // fix-it. In the Swift 5 language mode the entry then works, read-only.
    let result = expand(
      """
      extension UserDefaults {
        @DefaultEntry(default: 1)
        let count: Int
      }
      """)
    #expect(result.severities == [.note])
    #expect(result.expandedSource.contains("UserDefaults.countKey.value(in: self)"))
    #expect(!result.expandedSource.contains("set {"))
    #expect(
      result.expandedSource.contains("nonisolated static let countKey = UserDefaults.Key<Int>"))
  }

  @Test func aMissingTypeWithNoInitialValueIsLeftToTheCompiler() {
    // The compiler says "type annotation missing in pattern"; a second error would repeat it.
    let result = expand("extension UserDefaults {\n  @DefaultEntry(default: 1)\n  var count\n}")
    #expect(result.diagnostics.isEmpty)
    #expect(!result.expandedSource.contains("countKey"))
  }

  @Test(
    arguments: [
      ("@DefaultEntry(default: 1)\n  let count: Int", "Replace 'let' with 'var'"),
      (
        "@DefaultEntry(default: 1)\n  var count: Int = 2",
        "Remove the initial value (give it as 'default:' instead)"
      ),
      (
        "@DefaultEntry var count: Int = 3",
        "Move the initial value into the attribute as 'default:'"
      ),
      ("@DefaultEntry(default: 1)\n  static var count: Int", "Remove 'static'"),
      ("@DefaultEntry<Int>\n  var count: Int", "Make the type optional: 'Int?'"),
    ])
  func mistakesWithAMechanicalFixOfferIt(declaration: String, fixIt: String) {
    let result = expand("extension UserDefaults {\n  \(declaration)\n}")
    #expect(result.fixIts == [fixIt])
  }

  @Test(
    arguments: [
      ("@DefaultEntry(default: 1)\n  let count: Int", "\n  var "),
      ("@DefaultEntry(default: 1)\n  var count: Int = 2", "count: Int"),
      ("@DefaultEntry var count: Int = 3", "\n  @DefaultEntry(default: 3)  | count: Int"),
      (
        "@DefaultEntry<Int>(prefixedWith: \"p_\") var count: Int = 3",
        "\n  @DefaultEntry<Int>(default: 3, prefixedWith: \"p_\")  | count: Int"
      ),
      (
        "@DefaultEntry(\"k\")\n  var count: Int = [1][0]",
        "\n  @DefaultEntry(\"k\", default: [1][0]) | count: Int"
      ),
      (
        "@DefaultEntry(default: 1)\n  static var count: Int",
        "\n  @DefaultEntry(default: 1)\n  var count: Int"
      ),
      (
        "@DefaultEntry(default: 1)\n  public static var count: Int",
        "\n  @DefaultEntry(default: 1)\n  public var count: Int"
      ),
      ("@DefaultEntry<Int>\n  var count: Int", "Int?"),
    ])
  func fixItsWriteTheCorrection(declaration: String, replacements: String) {
    // The replacements include the trivia around them, as the compiler applies them.
    let result = expand("extension UserDefaults {\n  \(declaration)\n}")
    #expect(result.fixItTexts == [replacements])
  }

  @Test func useOutsideAUserDefaultsExtensionIsReported() {
    let result = expand(
      """
      struct Settings {
        @DefaultEntry(default: 1)
        var count: Int
      }
      """)
    #expect(
      result.diagnostics == [
        "@DefaultEntry must be used inside 'extension UserDefaults { … }'; for other types use @UserDefault or a UserDefaults.Key"
      ])
  }

  @Test func matchingLiteralsAndUserTypesAreAccepted() {
    let result = expand(
      """
      extension UserDefaults {
        @DefaultEntry(default: 1) var ratio: Double
        @DefaultEntry(default: .light) var theme: Theme
        @DefaultEntry(default: 3) var optionalCount: Int?
        @DefaultEntry(default: ["a"]) var names: [String]
      }
      """)
    #expect(result.diagnostics.isEmpty)
  }
}
