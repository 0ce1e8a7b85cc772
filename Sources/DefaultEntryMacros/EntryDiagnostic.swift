import SwiftDiagnostics

/// The mistakes `@DefaultEntry` reports, each worded with its fix.
enum EntryDiagnostic: DiagnosticMessage {
  case notAVariable
  case outsideUserDefaultsExtension
  case letDeclaration
  case staticDeclaration
  case severalBindings
  case initialValue(name: String, value: String)
  case hasAccessors
  case missingType(name: String, initialValue: String)
  case nonOptionalWithoutDefault(name: String, type: String)
  case genericMismatch(generic: String, declared: String)
  case defaultMismatch(literal: String, type: String)

  var message: String {
    switch self {
    case .notAVariable:
      "@DefaultEntry applies to a 'var' property declared in 'extension UserDefaults'"
    case .outsideUserDefaultsExtension:
      "@DefaultEntry must be used inside 'extension UserDefaults { … }'; "
        + "for other types use @UserDefault or a UserDefaults.Key"
    case .letDeclaration:
      "@DefaultEntry needs 'var', not 'let': the entry is read and written"
    case .staticDeclaration:
      "@DefaultEntry declares an instance property of UserDefaults; remove 'static'"
    case .severalBindings:
      "@DefaultEntry applies to exactly one property; declare each entry on its own line"
    case .initialValue(let name, let value):
      "'\(name)' cannot have an initial value; write the default in the attribute: "
        + "@DefaultEntry(default: \(value))"
    case .hasAccessors:
      "@DefaultEntry writes the getter and setter itself; remove the accessors"
    case .missingType(let name, let initialValue):
      "@DefaultEntry needs the type of '\(name)' written out and the initial value as the "
        + "default: '@DefaultEntry(default: \(initialValue)) var \(name): Type'"
    case .nonOptionalWithoutDefault(let name, let type):
      "'\(name)' has the non-optional type '\(type)' and no default; "
        + "add 'default:' to the attribute or declare it as '\(type)?'"
    case .genericMismatch(let generic, let declared):
      "@DefaultEntry<\(generic)> does not match the declared type '\(declared)'; "
        + "make them the same"
    case .defaultMismatch(let literal, let type):
      "the default is \(literal), which cannot be of type '\(type)'; give a default of type '\(type)'"
    }
  }

  var diagnosticID: MessageID {
    MessageID(domain: "DefaultEntry", id: "\(self)".prefix { $0 != "(" }.description)
  }

  /// A 'let' is a note: the compiler reports the error itself ("cannot expand accessor
  /// macro on variable declared with 'let'"), and the note carries the fix-it.
  var severity: DiagnosticSeverity {
    if case .letDeclaration = self { return .note }
    return .error
  }
}

/// The fix-its offered with ``EntryDiagnostic``.
enum EntryFixIt: FixItMessage {
  case useVar
  case removeInitialValue
  case moveInitialValue
  case removeStatic
  case makeOptional(String)

  var message: String {
    switch self {
    case .useVar: "Replace 'let' with 'var'"
    case .removeInitialValue: "Remove the initial value (give it as 'default:' instead)"
    case .moveInitialValue: "Move the initial value into the attribute as 'default:'"
    case .removeStatic: "Remove 'static'"
    case .makeOptional(let type): "Make the type optional: '\(type)?'"
    }
  }

  var fixItID: MessageID {
    MessageID(domain: "DefaultEntry", id: "\(self)".prefix { $0 != "(" }.description)
  }
}
