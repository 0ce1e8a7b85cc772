import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// What one `@DefaultEntry` attribute and the variable it is attached to say, checked.
struct EntryDeclaration {
  var name: String
  var type: TypeSyntax
  var defaultValue: ExprSyntax?
  /// The expression for the stored name, e.g. `"key_launchCount"`.
  var keyExpression: String
  var accessModifier: String?
  /// Declared with 'let' (reported as a note: the compiler reports the error itself).
  var isLet: Bool

  var keyPropertyName: String { name + "Key" }

  static let defaultPrefix = "key_"

  /// The entry, or `nil` after reporting (when `diagnose`) why there is none.
  static func parse(
    _ attribute: AttributeSyntax, _ declaration: some DeclSyntaxProtocol,
    _ context: some MacroExpansionContext, diagnose: Bool
  ) -> EntryDeclaration? {
    var problems = EntryProblems(context: context, enabled: diagnose)
    guard let variable = declaration.as(VariableDeclSyntax.self) else {
      problems.report(.notAVariable, at: Syntax(attribute))
      return nil
    }
    if !isInsideUserDefaultsExtension(context) {
      problems.report(.outsideUserDefaultsExtension, at: Syntax(attribute))
    }
    if variable.bindingSpecifier.tokenKind == .keyword(.let) {
      problems.report(
        .letDeclaration, at: Syntax(variable.bindingSpecifier),
        fixIt: FixIt(
          message: EntryFixIt.useVar,
          changes: [
            .replace(
              oldNode: Syntax(variable.bindingSpecifier),
              newNode: Syntax(variable.bindingSpecifier.with(\.tokenKind, .keyword(.var))))
          ]))
    }
    if let staticModifier = variable.modifiers.first(where: {
      $0.name.tokenKind == .keyword(.static)
    }) {
      problems.report(
        .staticDeclaration, at: Syntax(staticModifier),
        fixIt: FixIt(
          message: EntryFixIt.removeStatic,
          changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(removingStatic(variable)))]
        ))
    }
    guard variable.bindings.count == 1, let binding = variable.bindings.first,
      let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
    else {
      problems.report(.severalBindings, at: Syntax(variable))
      return nil
    }
    let name = identifier.identifier.trimmedDescription
    let arguments = AttributeArguments(attribute)

    guard let type = binding.typeAnnotation?.type else {
      // With no initial value either, the compiler reports "type annotation missing in
      // pattern" itself; a second error would say the same.
      if let initializer = binding.initializer {
        problems.report(
          .missingType(name: name, initialValue: initializer.value.trimmedDescription),
          at: Syntax(binding.pattern))
      } else {
        problems.stop()
      }
      return nil
    }
    if let initializer = binding.initializer {
      let withoutInitializer = binding.with(\.initializer, nil)
        .with(\.trailingTrivia, initializer.trailingTrivia)
      // With no default in the attribute the initial value moves there; beside one, it goes.
      let fixIt =
        arguments.defaultValue == nil
        ? FixIt(
          message: EntryFixIt.moveInitialValue,
          changes: [
            .replace(
              oldNode: Syntax(attribute),
              newNode: Syntax(addingDefault(initializer.value, to: attribute))),
            .replace(oldNode: Syntax(binding), newNode: Syntax(withoutInitializer)),
          ])
        : FixIt(
          message: EntryFixIt.removeInitialValue,
          changes: [.replace(oldNode: Syntax(binding), newNode: Syntax(withoutInitializer))])
      problems.report(
        .initialValue(name: name, value: initializer.value.trimmedDescription),
        at: Syntax(initializer), fixIt: fixIt)
    }
    if binding.accessorBlock != nil {
      problems.report(.hasAccessors, at: Syntax(binding))
    }
    let isOptional = TypeFacts.isOptional(type)
    // An initial value is the intended default: reported once above, as such.
    if arguments.defaultValue == nil && !isOptional && binding.initializer == nil {
      let optional = TypeSyntax(OptionalTypeSyntax(wrappedType: type.trimmed))
        .with(\.trailingTrivia, type.trailingTrivia)
      problems.report(
        .nonOptionalWithoutDefault(name: name, type: type.trimmedDescription), at: Syntax(type),
        fixIt: FixIt(
          message: EntryFixIt.makeOptional(type.trimmedDescription),
          changes: [.replace(oldNode: Syntax(type), newNode: Syntax(optional))]))
    }
    if let genericType = arguments.genericType, let genericArgument = arguments.genericArgument,
      TypeFacts.spelling(genericType) != TypeFacts.spelling(TypeFacts.unwrapped(type))
        && TypeFacts.spelling(genericType) != TypeFacts.spelling(type)
    {
      problems.report(
        .genericMismatch(
          generic: genericType.trimmedDescription, declared: type.trimmedDescription),
        at: genericArgument)
    }
    if let defaultValue = arguments.defaultValue,
      let literal = TypeFacts.mismatchedLiteral(defaultValue, for: type, isOptional: isOptional)
    {
      problems.report(
        .defaultMismatch(literal: literal, type: type.trimmedDescription), at: Syntax(defaultValue))
    }
    guard !problems.found else { return nil }

    let keyExpression: String
    if let explicitKey = arguments.explicitKey {
      keyExpression = explicitKey.trimmedDescription
    } else if let prefix = arguments.prefix {
      if let literal = TypeFacts.plainString(prefix) {
        keyExpression = "\"\(literal)\(name)\""
      } else {
        keyExpression = "(\(prefix.trimmedDescription)) + \"\(name)\""
      }
    } else {
      keyExpression = "\"\(defaultPrefix)\(name)\""
    }
    let accessModifier = variable.modifiers.first { modifier in
      [.public, .package, .internal, .fileprivate, .private]
        .contains { modifier.name.tokenKind == .keyword($0) } && modifier.detail == nil
    }
    return EntryDeclaration(
      name: name, type: type.trimmed, defaultValue: arguments.defaultValue?.trimmed,
      keyExpression: keyExpression, accessModifier: accessModifier?.name.text,
      isLet: variable.bindingSpecifier.tokenKind == .keyword(.let))
  }

  /// `variable` without its `static`, the next token taking the modifier's leading trivia.
  static func removingStatic(_ variable: VariableDeclSyntax) -> VariableDeclSyntax {
    guard
      let index = variable.modifiers.firstIndex(where: { $0.name.tokenKind == .keyword(.static) })
    else { return variable }
    let removed = variable.modifiers[index]
    var remaining = Array(variable.modifiers)
    remaining.removeAll { $0.name.tokenKind == .keyword(.static) }
    var result = variable
    if index == variable.modifiers.startIndex, let first = remaining.first {
      remaining[0] = first.with(\.leadingTrivia, removed.leadingTrivia)
    } else if index == variable.modifiers.startIndex {
      result.bindingSpecifier.leadingTrivia = removed.leadingTrivia
    }
    result.modifiers = DeclModifierListSyntax(remaining)
    return result
  }

  /// `attribute` with `default: value` added to its arguments (before `prefixedWith:`).
  static func addingDefault(_ value: ExprSyntax, to attribute: AttributeSyntax) -> AttributeSyntax {
    var arguments: [LabeledExprSyntax] = []
    if case .argumentList(let list) = attribute.arguments { arguments = Array(list) }
    let position = arguments.firstIndex { $0.label?.text == "prefixedWith" } ?? arguments.count
    arguments.insert(
      LabeledExprSyntax(
        label: .identifier("default"), colon: .colonToken(trailingTrivia: .space),
        expression: value.trimmed),
      at: position)
    let last = arguments.count - 1
    let separated = arguments.enumerated().map { index, argument in
      argument.trimmed.with(
        \.trailingComma, index == last ? nil : .commaToken(trailingTrivia: .space))
    }
    return
      attribute
      .with(\.attributeName, attribute.attributeName.with(\.trailingTrivia, []))
      .with(\.leftParen, .leftParenToken())
      .with(\.arguments, .argumentList(LabeledExprListSyntax(separated)))
      .with(\.rightParen, .rightParenToken(trailingTrivia: attribute.trailingTrivia))
  }

  private static func isInsideUserDefaultsExtension(_ context: some MacroExpansionContext) -> Bool {
    guard let enclosing = context.lexicalContext.first?.as(ExtensionDeclSyntax.self) else {
      return false
    }
    let extended = enclosing.extendedType.trimmedDescription
    return extended == "UserDefaults" || extended == "Foundation.UserDefaults"
  }
}

/// The arguments of the attribute: `<T>`, an unlabeled explicit key, `default:`,
/// `prefixedWith:`.
struct AttributeArguments {
  var genericType: TypeSyntax?
  /// The generic argument as written, where a mismatch is reported (`genericType` is a
  /// copy detached from the source file, so it has no location).
  var genericArgument: Syntax?
  var explicitKey: ExprSyntax?
  var defaultValue: ExprSyntax?
  var prefix: ExprSyntax?

  init(_ attribute: AttributeSyntax) {
    if let generic = attribute.attributeName.as(IdentifierTypeSyntax.self)?
      .genericArgumentClause?.arguments.first
    {
      genericType = TypeSyntax(stringLiteral: generic.argument.trimmedDescription)
      genericArgument = Syntax(generic.argument)
    }
    guard case .argumentList(let list) = attribute.arguments else { return }
    for argument in list {
      switch argument.label?.text {
      case nil: explicitKey = argument.expression
      case "default": defaultValue = argument.expression
      case "prefixedWith": prefix = argument.expression
      default: break
      }
    }
  }
}

/// Collects the problems of one declaration, reporting them unless told not to. Notes do
/// not stop the expansion; errors do.
struct EntryProblems<Context: MacroExpansionContext> {
  let context: Context
  let enabled: Bool
  private(set) var found = false

  init(context: Context, enabled: Bool) {
    self.context = context
    self.enabled = enabled
  }

  mutating func report(_ message: EntryDiagnostic, at node: Syntax, fixIt: FixIt? = nil) {
    if message.severity == .error { found = true }
    guard enabled else { return }
    context.diagnose(Diagnostic(node: node, message: message, fixIts: fixIt.map { [$0] } ?? []))
  }

  /// Stops the expansion without a report of the macro's own (the compiler makes one).
  mutating func stop() {
    found = true
  }
}
