import Foundation
import Testing

@testable import UserDefault

/// The privacy manifest ships in the `UserDefault` target's bundle and declares what the
/// library calls: UserDefaults for the app's own values (CA92.1) and file timestamps of
/// files in the app's container (C617.1), with no tracking and no data collected.
@Suite struct PrivacyManifestTests {
  @Test func theManifestShipsAndDeclaresTheRequiredReasonAPIs() throws {
    let url = try #require(
      Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy"))
    let manifest = try #require(
      try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        as? [String: Any])
    #expect(manifest["NSPrivacyTracking"] as? Bool == false)
    #expect((manifest["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
    #expect((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
    let types = try #require(manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
    var reasons: [String: [String]] = [:]
    for type in types {
      let name = try #require(type["NSPrivacyAccessedAPIType"] as? String)
      reasons[name] = type["NSPrivacyAccessedAPITypeReasons"] as? [String]
    }
    #expect(
      reasons == [
        "NSPrivacyAccessedAPICategoryUserDefaults": ["CA92.1"],
        "NSPrivacyAccessedAPICategoryFileTimestamp": ["C617.1"],
      ])
  }
}
