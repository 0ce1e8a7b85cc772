import Foundation

/// A problem the library absorbed instead of crashing, sent to
/// ``DefaultsDiagnostics/handler`` (standard error unless replaced).
public struct DefaultsDiagnostic: Sendable, CustomStringConvertible {
  /// What kind of problem was met.
  public enum Kind: String, Sendable, CaseIterable {
    /// The stored value has another type than the key's, or is out of its range.
    case wrongType
    /// The stored data could not be decoded (corrupt JSON, invalid raw value).
    case undecodableValue
    /// A value was refused because it is not a property list; nothing was written.
    case refusedValue
    /// Two declarations use the same stored name in one suite.
    case keyCollision
    /// A key name that cannot round-trip through a property-list file.
    case invalidKey
    /// Writing the preferences to disk failed.
    case failedSave
    /// A preferences file was damaged and set aside.
    case damagedFile
    /// A preferences file may not be read now (permissions, data protection); writes wait.
    case unavailableFile
    /// An XML preferences file was written as binary, to hold a value exactly.
    case changedFormat
    /// A suite name was refused.
    case invalidSuite
    /// A directory was refused because another program owns its files: on Apple
    /// platforms, `cfprefsd` and every `Library/Preferences` folder.
    case refusedDirectory
    /// A type that the library does not know how to store.
    case unsupportedType
    /// An update, transaction or migration was started inside another of the same suite
    /// on the same thread, and refused.
    case nestedUpdate
  }

  /// What kind of problem was met.
  public let kind: Kind
  /// The stored name concerned, when there is one.
  public let key: String?
  /// The suite concerned (`nil` for the standard suite or when unknown).
  public let suite: String?
  /// A sentence for a developer: what happened and what the library did about it.
  public let message: String

  /// Creates an event; the library makes these, tests may too.
  ///
  /// - Parameters:
  ///   - kind: What kind of problem was met.
  ///   - key: The stored name concerned, or `nil`.
  ///   - suite: The suite concerned, or `nil` for the standard suite or when unknown.
  ///   - message: A sentence for a developer: what happened and what the library did.
  ///
  /// `let event = DefaultsDiagnostic(kind: .wrongType, key: "theme", suite: nil, message: "…")`
  public init(kind: Kind, key: String?, suite: String?, message: String) {
    self.kind = kind
    self.key = key
    self.suite = suite
    self.message = message
  }

  /// One line: `UserDefault[kind] suite/key: message`; the standard suite as
  /// `standard (app.plist)`.
  public var description: String {
    let suite = self.suite ?? "standard (\(ProcessInfo.processInfo.processName).plist)"
    let place = [suite, key].compactMap { $0 }.joined(separator: "/")
    return "UserDefault[\(kind.rawValue)] \(place): \(message)"
  }
}
