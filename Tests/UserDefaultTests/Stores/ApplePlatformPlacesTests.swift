import DefaultsCommand
import Foundation
import Testing

@testable import UserDefault

/// Where files go on Apple platforms: the rules are portable functions, applied only under
/// `canImport(Darwin)`, so they are tested here on every platform.
@Suite("Apple platforms: App Group suites and cfprefsd's folders")
struct ApplePlatformPlacesTests {
  @Test("A group. suite lives in the group's container, shared by the app and its extensions")
  func appGroupSuitesLiveInTheContainer() throws {
    let container = URL(fileURLWithPath: "/private/var/mobile/Containers/Shared/AppGroup/ABC")
    var asked: [String] = []
    let directory = try #require(
      try PreferencesFile.appGroupDirectory(forSuite: "group.com.example.app") {
        asked.append($0)
        return container
      })
    #expect(asked == ["group.com.example.app"])
    #expect(
      directory
        == container.path + "/Library/Application Support/group.com.example.app/Preferences")
    #expect(PreferencesFile.problem(withDirectory: directory) == nil)
  }

  @Test("Other names are not App Groups' and ask for no container")
  func otherNamesAskForNoContainer() throws {
    for name in ["com.example.app", "groups.app", "Group.app", "app.group.x"] {
      let directory = try PreferencesFile.appGroupDirectory(forSuite: name) { _ in
        Issue.record("asked a container for \(name)")
        return nil
      }
      #expect(directory == nil)
    }
  }

  @Test("A group without a container is refused with the entitlement that fixes it")
  func aGroupWithoutAContainerIsRefused() {
    let error = #expect(throws: DefaultsError.self) {
      _ = try PreferencesFile.appGroupDirectory(forSuite: "group.com.example.app") { _ in nil }
    }
    #expect(error?.kind == .invalidSuite)
    #expect(error?.message.contains("com.apple.security.application-groups") == true)
    #expect(error?.message.contains("group.com.example.app") == true)
  }

  @Test(
    "Every Library/Preferences folder is cfprefsd's, whatever its case or spelling",
    arguments: [
      "/Users/me/Library/Preferences", "/Users/me/Library/Preferences/", "/Library/Preferences",
      "/Users/me/library/preferences", "/Users/me/Library/Preferences/ByHost",
      "/private/var/mobile/Containers/Shared/AppGroup/ABC/Library/Preferences",
    ])
  func libraryPreferencesIsRefused(directory: String) {
    let problem = PreferencesFile.problem(withDirectory: directory)
    #expect(problem?.contains("cfprefsd") == true)
    #expect(problem?.contains("UserDefaults(suiteName:)") == true)
  }

  @Test(
    "Other folders are the library's to use",
    arguments: [
      "/Users/me/Library/Application Support/com.example.app/Preferences",
      "/home/me/.config", "/Users/me/Library/PreferencesBackup", "/tmp/Preferences",
    ])
  func otherFoldersAreAccepted(directory: String) {
    #expect(PreferencesFile.problem(withDirectory: directory) == nil)
  }

  @Test("The defaults tool's usage and its macOS notice send macOS users to /usr/bin/defaults")
  func theToolSendsMacOSUsersToTheSystemTool() {
    #expect(DefaultsTool.usage(verb: nil).contains("on macOS use /usr/bin/defaults"))
    #expect(DefaultsTool.macOSNotice.contains("/usr/bin/defaults"))
    #expect(DefaultsTool.macOSNotice.contains("Nothing was read or written"))
  }
}
