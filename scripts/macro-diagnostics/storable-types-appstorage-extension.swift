import Foundation
import UserDefault

// The snippet many apps carry for SwiftUI's @AppStorage makes every array of Codable
// elements RawRepresentable (its raw value a JSON string). A key of such an array must still
// compile, also when its elements are raw-value enums that are Codable too: no diagnostics.
extension Array: @retroactive RawRepresentable where Element: Codable {
  public init?(rawValue: String) {
    guard let data = rawValue.data(using: .utf8),
      let result = try? JSONDecoder().decode([Element].self, from: data)
    else { return nil }
    self = result
  }
  public var rawValue: String {
    guard let data = try? JSONEncoder().encode(self) else { return "[]" }
    return String(decoding: data, as: UTF8.self)
  }
}

enum CodableTheme: String, Codable, Sendable { case light, dark }
struct Profile: Codable, Sendable { var name: String }

extension UserDefaults.Keys {
  static let themes = Key<[CodableTheme]>("themes", default: [])
  static let profiles = Key<[Profile]>("profiles", default: [])
  static let counts = Key<[Int]>("counts", default: [])
  static let maybeThemes = Key<[CodableTheme]?>("maybeThemes")
}

final class User {
  @UserDefaultsWrapper(key: "Themes", default: []) var themes: [CodableTheme]
  @UserDefaultsWrapper(key: "Profiles") var profiles: [Profile]?
}
