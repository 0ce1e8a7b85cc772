import SwiftSyntax

/// What can be told about a type or a default from its spelling alone; a macro sees
/// syntax, not types, so these checks catch the plain mistakes early and leave the rest
/// to the compiler.
enum TypeFacts {
  static func isOptional(_ type: TypeSyntax) -> Bool {
    if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return true
    }
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      return identifier.name.text == "Optional" && identifier.genericArgumentClause != nil
    }
    return false
  }

  static func unwrapped(_ type: TypeSyntax) -> TypeSyntax {
    if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
    if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return optional.wrappedType
    }
    if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
      let argument = identifier.genericArgumentClause?.arguments.first
    {
      return TypeSyntax(stringLiteral: argument.argument.trimmedDescription)
    }
    return type
  }

  /// The type's text without whitespace, to compare two spellings.
  static func spelling(_ type: TypeSyntax) -> String {
    type.trimmedDescription.filter { !$0.isWhitespace }
  }

  /// The text of a string literal with no interpolation, else `nil`.
  static func plainString(_ expression: ExprSyntax) -> String? {
    guard let literal = expression.as(StringLiteralExprSyntax.self),
      literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) })
    else { return nil }
    return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
  }

  private static let integerTypes: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
  ]
  private static let floatingTypes: Set<String> = ["Double", "Float", "CGFloat"]

  /// A description of `expression` when it is a literal that cannot be a `type`
  /// (`"1"` for an `Int`, `nil` for a non-optional), else `nil`.
  static func mismatchedLiteral(_ expression: ExprSyntax, for type: TypeSyntax, isOptional: Bool)
    -> String?
  {
    if expression.is(NilLiteralExprSyntax.self) {
      return isOptional ? nil : "nil"
    }
    let base = spelling(unwrapped(type))
    let literalKind: String
    let accepted: Set<String>
    if expression.is(StringLiteralExprSyntax.self) {
      literalKind = "a string literal"
      accepted = ["String", "Character", "Substring", "URL"]
    } else if expression.is(IntegerLiteralExprSyntax.self) {
      literalKind = "an integer literal"
      accepted = integerTypes.union(floatingTypes).union(["Decimal"])
    } else if expression.is(FloatLiteralExprSyntax.self) {
      literalKind = "a floating-point literal"
      accepted = floatingTypes.union(["Decimal"])
    } else if expression.is(BooleanLiteralExprSyntax.self) {
      literalKind = "a Boolean literal"
      accepted = ["Bool"]
    } else {
      return nil
    }
    // Only the well-known types are judged; a user type may accept any literal.
    let known = integerTypes.union(floatingTypes).union(["String", "Bool", "Data", "Date", "UUID"])
    guard known.contains(base), !accepted.contains(base) else { return nil }
    return literalKind
  }
}
