/// Which stored names the library accepts.
///
/// An XML property list cannot hold most control characters, so a key containing one
/// would make the whole preferences file unreadable; an empty name is almost always a
/// bug. Such keys are reported when they are created and their writes are refused.
enum KeyName {
  /// Why `name` cannot be used as a stored name, or `nil` when it can.
  static func problem(with name: String) -> String? {
    if name.isEmpty { return "an empty key name cannot be stored" }
    if let scalar = name.unicodeScalars.first(where: isForbidden) {
      return "key \(name.debugDescription) contains the control character "
        + "U+\(String(scalar.value, radix: 16, uppercase: true)), which a property-list file cannot hold"
    }
    return nil
  }

  private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D: false  // tab and line breaks survive XML
    case 0..<0x20, 0x7F, 0xFFFE, 0xFFFF: true
    default: false
    }
  }

  /// Reports `name` when it is invalid; returns whether it is valid.
  @discardableResult
  static func validate(_ name: String, suite: String?) -> Bool {
    guard let problem = problem(with: name) else { return true }
    DefaultsDiagnostics.report(.invalidKey, key: name, suite: suite, problem)
    return false
  }
}
