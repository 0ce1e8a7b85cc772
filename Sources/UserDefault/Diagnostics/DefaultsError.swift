import Foundation

/// Why a value could not be turned into a stored property list, or back.
///
/// Thrown by the bridging layer (``PropertyListValue``, ``UserDefaultable``) and by the
/// APIs that promise to refuse rather than crash, such as `UserDefaults.store(_:forKey:)`.
public struct DefaultsError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Which diagnostic this error becomes when it is reported.
  public let kind: DefaultsDiagnostic.Kind
  /// A sentence that says what was wrong, for a developer.
  public let message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: Which diagnostic the error becomes when it is reported.
  ///   - message: A sentence that says what was wrong, for a developer.
  ///
  /// `throw DefaultsError(.refusedValue, "a closure is not a property list")`
  public init(_ kind: DefaultsDiagnostic.Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }

  static func wrongType(_ expected: Any.Type, found object: Any) -> DefaultsError {
    DefaultsError(
      .wrongType,
      "expected \(expected), found \(type(of: object)) \(String(describing: object).prefix(80))")
  }
}
