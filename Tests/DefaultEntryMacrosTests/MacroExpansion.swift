import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

/// Expands macros in a source text the way the compiler would, for tests:
/// `SwiftSyntaxMacrosTestSupport` is not shipped with the toolchain.
struct MacroExpansion {
  /// The expanded source, formatted by swift-syntax.
  let expandedSource: String
  /// The messages the macros reported, in order.
  let diagnostics: [String]
  /// Where each diagnostic points, as `line:column` in the source, in order.
  let locations: [String]
  /// How severe each diagnostic is, in order.
  let severities: [DiagnosticSeverity]
  /// The fix-it messages offered with them, in order.
  let fixIts: [String]
  /// The text each fix-it puts in, its replacements joined by " | ", in order.
  let fixItTexts: [String]

  init(_ source: String, macros: [String: any Macro.Type]) {
    let file = Parser.parse(source: source)
    let shared = BasicMacroExpansionContext(
      sourceFiles: [
        file: .init(moduleName: "TestModule", fullFilePath: "Test.swift")
      ])
    let expanded = file.expand(
      macros: macros,
      contextGenerator: { node in
        BasicMacroExpansionContext(
          sharingWith: shared, lexicalContext: node.allMacroLexicalContexts())
      },
      indentationWidth: .spaces(2))
    expandedSource = expanded.description.trimmingCharacters(in: .whitespacesAndNewlines)
    diagnostics = shared.diagnostics.map(\.message)
    // The macro saw a detached copy of its declaration: the context maps positions back.
    locations = shared.diagnostics.map { diagnostic in
      let location = shared.location(
        for: diagnostic.position, anchoredAt: diagnostic.node, fileName: "Test.swift")
      return "\(location.line):\(location.column)"
    }
    severities = shared.diagnostics.map(\.diagMessage.severity)
    fixIts = shared.diagnostics.flatMap { $0.fixIts.map(\.message.message) }
    fixItTexts = shared.diagnostics.flatMap { diagnostic in
      diagnostic.fixIts.map { fixIt in
        fixIt.changes.compactMap { change -> String? in
          guard case .replace(_, let newNode) = change else { return nil }
          return newNode.description
        }.joined(separator: " | ")
      }
    }
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
    var text = Substring(self)
    while let first = text.first, set.contains(first) { text.removeFirst() }
    while let last = text.last, set.contains(last) { text.removeLast() }
    return String(text)
  }
}

extension Set<Character> {
  fileprivate static let whitespacesAndNewlines: Set<Character> = [" ", "\n", "\t"]
}
