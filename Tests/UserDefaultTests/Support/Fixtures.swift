import Foundation

@testable import UserDefault

enum Theme: String, Sendable { case system, light, dark }
enum Mode: String, Codable, Sendable { case fast, slow }
struct Profile: Codable, Equatable, Sendable {
  var name: String
  var age: Int
}
enum Flavor: String, Codable, UserDefaultable { case sweet, sour }
struct Point: Codable, Equatable, UserDefaultable {
  var x: Double
  var y: Double
}
