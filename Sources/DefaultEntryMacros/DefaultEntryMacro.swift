import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@DefaultEntry`: turns `var name: T` inside `extension UserDefaults` into a computed
/// property backed by a typed key, and adds that key as a static peer `nameKey`.
///
/// ```swift
/// @DefaultEntry(default: 0) var launchCount: Int
/// // becomes
/// var launchCount: Int {
///   get { UserDefaults.launchCountKey.value(in: self) }
///   set { UserDefaults.launchCountKey.store(newValue, in: self) }
/// }
/// nonisolated static let launchCountKey = UserDefaults.Key<Int>("key_launchCount", default: 0, …)
/// ```
///
/// The key is what makes the entry's name, default, removal and observation reachable;
/// the value goes through the library's one value bridge like every other surface.
public enum DefaultEntryMacro {}

extension DefaultEntryMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let entry = EntryDeclaration.parse(node, declaration, context, diagnose: true) else {
      return placeholderAccessors(for: declaration)
    }
    let key = "UserDefaults.\(entry.keyPropertyName)"
    let getter: AccessorDeclSyntax = "get { \(raw: key).value(in: self) }"
    // A 'let' gets the getter alone: the compiler then reports the 'let' once (an error in
    // the Swift 6 language mode), and in the Swift 5 mode the entry works, read-only.
    guard !entry.isLet else { return [getter] }
    return [getter, "set { \(raw: key).store(newValue, in: self) }"]
  }

  /// Accessors for a declaration the macro reported an error on. They keep the property
  /// computed, so that the compiler adds no errors of its own beside the macro's one
  /// ("did not produce a non-observing accessor", "extensions must not contain stored
  /// properties"). They never run: the file does not compile.
  static func placeholderAccessors(for declaration: some DeclSyntaxProtocol)
    -> [AccessorDeclSyntax]
  {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      variable.bindings.count == 1, variable.bindings.first?.accessorBlock == nil
    else { return [] }
    let getter: AccessorDeclSyntax =
      #"get { fatalError("@DefaultEntry reported an error on this declaration") }"#
    // Every accessor on a 'let' is one more compiler error: one getter, one error.
    guard variable.bindingSpecifier.tokenKind != .keyword(.let) else { return [getter] }
    return [getter, "set {}"]
  }
}

extension DefaultEntryMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    // Problems were reported once, by the accessor role.
    guard let entry = EntryDeclaration.parse(node, declaration, context, diagnose: false) else {
      return []
    }
    var arguments = [entry.keyExpression]
    if let defaultValue = entry.defaultValue {
      arguments.append("default: \(defaultValue.trimmedDescription)")
    }
    if let location = context.location(of: node) {
      arguments.append("file: \(location.file)")
      arguments.append("line: \(location.line)")
    }
    let access = entry.accessModifier.map { "\($0) " } ?? ""
    // `nonisolated`: in a module whose default isolation is the main actor (Xcode 26's
    // templates), a plain `static let` is main-actor isolated, and nonisolated code could
    // not reach the key. The key is an immutable `Sendable` value, so it needs no actor.
    return [
      """
      /// The key behind `\(raw: entry.name)`: its stored name, default, removal and observation.
      \(raw: access)nonisolated static let \(raw: entry.keyPropertyName) = UserDefaults.Key<\(raw: entry.type.trimmedDescription)>(\(raw: arguments.joined(separator: ", ")))
      """
    ]
  }
}
