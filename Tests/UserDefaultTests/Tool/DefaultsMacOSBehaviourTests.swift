import Foundation
import Testing

/// The behaviours of macOS `defaults(1)` that setup scripts rely on, each pinned down by
/// running the tool as a process in a sandbox.
@Suite("defaults: behaves as macOS defaults(1)", .linuxFiles)
struct DefaultsMacOSBehaviourTests {
  typealias Sandbox = DefaultsToolProcessTests.Sandbox

  private func plist(_ path: String) throws -> [String: Any] {
    let data = try #require(FileManager.default.contents(atPath: path), "\(path)")
    return try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
  }

  private func type(_ sandbox: Sandbox, _ arguments: String...) throws -> String {
    try sandbox.run(["read-type"] + arguments).output
  }

  // MARK: 1. Path domains

  @Test("A path domain names the file, with or without .plist, absolute, ~ or relative")
  func pathDomainNamesAFileWithOrWithoutPlistExtension() throws {
    let sandbox = Sandbox()
    let home = sandbox.directory.path
    let loginwindow = home + "/Library/Preferences/com.apple.loginwindow"
    #expect(try sandbox.run("write", loginwindow, "SHOWFULLNAME", "-bool", "true").status == 0)
    #expect(try sandbox.run("write", loginwindow + ".plist", "Text", "-string", "hi").status == 0)
    let values = try plist(loginwindow + ".plist")
    #expect(values["SHOWFULLNAME"] as? Bool == true && values["Text"] as? String == "hi")
    #expect(!FileManager.default.fileExists(atPath: loginwindow + ".plist.plist"))
    // The same write path as any domain: under the file's lock.
    #expect(FileManager.default.fileExists(atPath: loginwindow + ".plist.lock"))
    #expect(try sandbox.run("read", loginwindow, "Text").output == "hi\n")
    #expect(try type(sandbox, loginwindow + ".plist", "SHOWFULLNAME") == "Type is boolean\n")

    // ~ is expanded (a script may quote it) and ByHost paths with a UUID work as written.
    let byHost = "~/Library/Preferences/ByHost/com.apple.trackpad.0A1B2C3D-0000-1111-2222-3333"
    #expect(try sandbox.run("write", byHost, "Clicking", "-int", "1").status == 0)
    let byHostFile =
      home + "/Library/Preferences/ByHost/com.apple.trackpad.0A1B2C3D-0000-1111-2222-3333.plist"
    #expect(try plist(byHostFile)["Clicking"] as? Int == 1)

    // A relative path with a '/' is a path too, from the working directory.
    let process = try SpawnedProcess(
      ChildProcess.buildDirectory.appendingPathComponent("defaults"),
      ["write", "./local/com.example.here", "k", "v"],
      environment: ["HOME": home, "XDG_CONFIG_HOME": home],
      directory: home)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(try plist(home + "/local/com.example.here.plist")["k"] as? String == "v")
    // A path to nothing readable: the usual message and exit status.
    let missing = try sandbox.run("read", home + "/nothing/here")
    #expect(missing.status == 1 && missing.error.hasPrefix("Domain \(home)/nothing/here does not"))
  }

  // MARK: 2. -currentHost and -host

  @Test(
    "-currentHost addresses ByHost/<domain>.<host id>.plist, -host <name> ByHost/<domain>.<name>.plist"
  )
  func currentHostAndHostAddressPerMachineFiles() throws {
    let sandbox = Sandbox()
    let directory = sandbox.directory.path
    let id = ToolHost.currentHostID
    #expect(
      try sandbox.run("-currentHost", "write", "com.apple.screensaver", "idleTime", "-int", "0")
        .status == 0)
    #expect(
      try plist(directory + "/ByHost/com.apple.screensaver.\(id).plist")["idleTime"] as? Int == 0)
    #expect(
      try sandbox.run("-currentHost", "read", "com.apple.screensaver", "idleTime").output == "0\n")
    #expect(try sandbox.run("-currentHost", "domains").output == "com.apple.screensaver\n")
    // Not the domain for every host.
    #expect(try sandbox.run("read", "com.apple.screensaver").status == 1)
    #expect(try sandbox.run("domains").output == "\n")

    #expect(try sandbox.run("-currentHost", "write", "-g", "tap", "-bool", "yes").status == 0)
    #expect(try plist(directory + "/ByHost/.GlobalPreferences.\(id).plist")["tap"] as? Bool == true)

    #expect(
      try sandbox.run("-host", "buildbox", "write", "com.example.energy", "s", "1").status == 0)
    #expect(
      try plist(directory + "/ByHost/com.example.energy.buildbox.plist")["s"] as? String == "1")
    #expect(try sandbox.run("-host", "buildbox", "delete", "com.example.energy", "s").status == 0)

    let noName = try sandbox.run("-host")
    #expect(noName.status == 1 && noName.error.hasPrefix("defaults: -host needs a host name"))
    #expect(try sandbox.run("-host", "../x", "read", "a").status == 1)
  }

  // MARK: 3. Typed writes replace the type

  @Test("A typed write over a value of another type replaces the type")
  func typedWriteReplacesStoredTypeLikeMacOS() throws {
    let sandbox = Sandbox()
    let steps: [([String], String, String)] = [
      (["-int", "1"], "", "Type is integer\n"),
      (["-bool", "true"], "-bool true over integer 1", "Type is boolean\n"),
      (["-bool", "false"], "", "Type is boolean\n"),
      (["-int", "0"], "-int 0 over false", "Type is integer\n"),
      (["-float", "0"], "-float 0 over integer 0", "Type is float\n"),
      (["-bool", "false"], "-bool false over -float 0", "Type is boolean\n"),
      (["-string", "0"], "-string 0 over false", "Type is string\n"),
      (["-int", "0"], "-int 0 over the string 0", "Type is integer\n"),
    ]
    for (value, label, expected) in steps {
      #expect(try sandbox.run(["write", "app", "k"] + value).status == 0)
      #expect(try type(sandbox, "app", "k") == expected, "\(label)")
    }
    #expect(try sandbox.values("app")["k"] as? Int == 0)
    // Inside a dictionary too.
    try sandbox.run("write", "app", "d", "-dict", "a", "-int", "1")
    try sandbox.run("write", "app", "d", "-dict-add", "a", "-bool", "true")
    #expect(try sandbox.run("export", "app", "-").output.contains("<key>a</key>\n\t\t<true/>"))
  }

  // MARK: 4. Untyped values are property-list text

  @Test("An untyped value is old-style property-list text; a bare word or free text a string")
  func untypedValuesAreReadAsOldStylePropertyListText() throws {
    let sandbox = Sandbox()
    let writes: [[String]] = [
      ["quote", "-array", "\"\\\"\""], ["quoted", "\"a b\""], ["word", "word"],
      ["free", "hello world"], ["number", "1"], ["array", "(a, \"b c\", (1))"],
      ["dict", "{ a = 1; \"b c\" = (x); }"], ["data", "<00ff>"], ["escape", "\"caf\\U00e9\\n\""],
      ["xml", "<dict><key>a</key><integer>1</integer></dict>"], ["empty", ""],
      ["items", "-array", "\"x y\"", "(1, 2)", "{ k = v; }", "plain"],
    ]
    for write in writes {
      let result = try sandbox.run(["write", "app"] + write)
      #expect(result.status == 0, "\(write): \(result.error)")
    }
    let values = try sandbox.values("app")
    #expect(values["quote"] as? [String] == ["\""])
    #expect(values["quoted"] as? String == "a b")
    #expect(values["word"] as? String == "word")
    #expect(values["free"] as? String == "hello world")
    #expect(values["number"] as? String == "1")
    let array = try #require(values["array"] as? [Any])
    #expect(array[0] as? String == "a" && array[1] as? String == "b c")
    #expect(array[2] as? [String] == ["1"])
    let dictionary = try #require(values["dict"] as? [String: Any])
    #expect(dictionary["a"] as? String == "1" && dictionary["b c"] as? [String] == ["x"])
    #expect(values["data"] as? Data == Data([0, 255]))
    #expect(values["escape"] as? String == "café\n")
    #expect((values["xml"] as? [String: Any])?["a"] as? Int == 1)
    #expect(values["empty"] as? String == "")
    let items = try #require(values["items"] as? [Any])
    #expect(items[0] as? String == "x y" && items[1] as? [String] == ["1", "2"])
    #expect((items[2] as? [String: String]) == ["k": "v"] && items[3] as? String == "plain")
    // An unfinished collection is an error, as on macOS.
    let unfinished = try sandbox.run("write", "app", "k", "-array", "(a, b")
    #expect(unfinished.status == 1 && unfinished.error.hasPrefix("Could not parse: (a, b"))
  }

  // MARK: 5. Typed values nested in -dict and -array

  @Test("Typed values work inside -dict, -dict-add, -array and -array-add")
  func typedValuesNestInsideDictAndArrayLikeMacOS() throws {
    let sandbox = Sandbox()
    #expect(
      try sandbox.run(
        "write", "finder", "FXInfoPanesExpanded", "-dict", "General", "-bool", "true", "Size",
        "-int", "3"
      ).status == 0)
    try sandbox.run("write", "finder", "FXInfoPanesExpanded", "-dict-add", "Ratio", "-float", "0.5")
    try sandbox.run("write", "finder", "list", "-array", "-int", "1", "two", "-bool", "no")
    try sandbox.run("write", "finder", "list", "-array-add", "-int", "3", "-data", "ff")
    let values = try sandbox.values("finder")
    let panes = try #require(values["FXInfoPanesExpanded"] as? [String: Any])
    #expect(panes["General"] as? Bool == true && panes["Size"] as? Int == 3)
    #expect(panes["Ratio"] as? Double == 0.5)
    let list = try #require(values["list"] as? [Any])
    #expect(list.count == 5)
    #expect(list[0] as? Int == 1 && list[1] as? String == "two" && list[2] as? Bool == false)
    #expect(list[3] as? Int == 3 && list[4] as? Data == Data([255]))
    #expect(try type(sandbox, "finder", "list") == "Type is array\n")
  }

  @Test("A collection flag inside -dict or -array is an error, never stored as a string")
  func collectionFlagInsideDictOrArrayIsAnError() throws {
    let sandbox = Sandbox()
    try sandbox.run("write", "app", "k", "kept")
    let before = FileManager.default.contents(atPath: sandbox.directory.path + "/app.plist")
    for arguments in [
      ["-dict", "a", "-int", "1", "b", "-array", "1", "2"], ["-dict", "a", "-dict", "b", "c"],
      ["-dict-add", "a", "-array-add", "1"], ["-array", "1", "-array", "2"],
      ["-array-add", "-dict", "a", "b"], ["-dict", "-array", "x"],
    ] {
      let result = try sandbox.run(["write", "app", "k"] + arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.error.contains("cannot"), "\(arguments): \(result.error)")
    }
    #expect(FileManager.default.contents(atPath: sandbox.directory.path + "/app.plist") == before)
  }

  // MARK: 6. read formatting

  @Test("read quotes keys and strings as macOS does: bare only for letters, digits and _")
  func readQuotesAsMacOSOldStyleDescription() throws {
    let sandbox = Sandbox()
    for write in [
      ["plain_Key1", "Word"], ["com.apple.mouse.scaling", "-float", "0.875"],
      ["string", "-string", "0.5"], ["real", "-float", "0.5"], ["whole", "-float", "14"],
      ["huge", "-float", "1e20"], ["negative", "-int", "-1"], ["path", "-string", "/usr/bin"],
      ["dollar", "-string", "$HOME"], ["dash", "-string", "a-b"], ["empty", "-string", ""],
      ["unicode", "-string", "Save As…"], ["quote", "-string", "say \"hi\"\\"],
      ["flag", "-bool", "yes"], ["blob", "-data", "00ff"],
      ["when", "-date", "2001-01-01 00:00:00 +0000"],
      ["list", "-array", "a.b", "-int", "2"],
    ] {
      #expect(try sandbox.run(["write", "app"] + write).status == 0, "\(write)")
    }
    let expected = """
      {
          blob = {length = 2, bytes = 0x00ff};
          "com.apple.mouse.scaling" = "0.875";
          dash = "a-b";
          dollar = "$HOME";
          empty = "";
          flag = 1;
          huge = 100000000000000000000;
          list = (
              "a.b",
              2
          );
          negative = "-1";
          path = "/usr/bin";
          plain_Key1 = Word;
          quote = "say \\"hi\\"\\\\";
          real = "0.5";
          string = "0.5";
          unicode = "Save As\\U2026";
          when = "2001-01-01 00:00:00 +0000";
          whole = 14;
      }

      """
    #expect(try sandbox.run("read", "app").output == expected)
    // At the top level a value prints as it is.
    #expect(try sandbox.run("read", "app", "string").output == "0.5\n")
    #expect(try sandbox.run("read", "app", "real").output == "0.5\n")
    #expect(try sandbox.run("read", "app", "whole").output == "14\n")
    #expect(try sandbox.run("read", "app", "huge").output == "100000000000000000000\n")
    #expect(try sandbox.run("read", "app", "when").output == "2001-01-01 00:00:00 +0000\n")
    #expect(try sandbox.run("read", "app", "negative").output == "-1\n")
  }

  @Test(
    "Reals print in the shortest form that reads back, without exponent below 1e21",
    arguments: [
      ("14", "14"), ("1e20", "100000000000000000000"), ("0.1", "0.1"), ("2.5", "2.5"),
      ("-1.25", "-1.25"), ("0.001", "0.001"), ("1e21", "1e+21"), ("1e-7", "1e-7"),
      ("123456.789", "123456.789"), ("0.000001", "0.000001"),
      ("0.30000000000000004", "0.30000000000000004"),
    ])
  func realsPrintInShortestPositionalForm(written: String, printed: String) throws {
    let sandbox = Sandbox()
    try sandbox.run("write", "app", "r", "-float", written)
    #expect(try sandbox.run("read", "app", "r").output == printed + "\n")
  }

  @Test("read of a 10 MB data value is fast and prints it abbreviated, as macOS does")
  func readOfLargeDataIsFastAndAbbreviated() throws {
    let sandbox = Sandbox()
    var bytes = [UInt8](repeating: 0, count: 10 * 1024 * 1024)
    for index in stride(from: 0, to: bytes.count, by: 4096) {
      bytes[index] = UInt8(index / 4096 % 251)
    }
    bytes[0] = 0x62
    bytes[bytes.count - 1] = 0x43
    let source = sandbox.directory.path + "/source.plist"
    let data = try PropertyListSerialization.data(
      fromPropertyList: ["blob": Data(bytes)], format: .xml, options: 0)
    _ = FileManager.default.createFile(atPath: source, contents: data)
    #expect(try sandbox.run("import", "big", source).status == 0)
    let start = ContinuousClock.now
    let result = try sandbox.run("read", "big", "blob")
    let elapsed = ContinuousClock.now - start
    #expect(
      result.output
        == "{length = 10485760, bytes = 0x62000000 00000000 00000000 00000000 ... 00000000 00000043 }\n"
    )
    // 15.75 s before, in a debug build; the release build takes about 0.03 s.
    #expect(elapsed < .seconds(3), "\(elapsed)")
  }

  // MARK: 7. Smaller items

  @Test("help with an unknown verb or topic fails; help lists -g, -currentHost and -host")
  func helpOfUnknownTopicFailsAndHelpListsGlobalDomainFlag() throws {
    let sandbox = Sandbox()
    let unknown = try sandbox.run("help", "nosuch")
    #expect(unknown.status == 1 && unknown.error.hasPrefix("defaults: no help on \"nosuch\""))
    #expect(unknown.output.isEmpty)
    let bogus = try sandbox.run("bogus")
    #expect(bogus.status == 1)
    let help = try sandbox.run("help")
    #expect(help.status == 0)
    for word in ["-g", "NSGlobalDomain", "-currentHost", "-host", ".plist"] {
      #expect(help.output.contains(word), "\(word)")
    }
  }

  @Test("The domains . and .. are refused")
  func dotAndDotDotAreNotDomains() throws {
    let sandbox = Sandbox()
    // Paths inside the sandbox, so that a failure cannot write anywhere else.
    let inside = sandbox.directory.path
    for domain in [".", "..", inside + "/sub/.", inside + "/sub/..", inside + "/sub/"] {
      let result = try sandbox.run("write", domain, "k", "v")
      #expect(result.status == 1, "\(domain)")
      #expect(result.error.hasPrefix("bad domain name"), "\(domain): \(result.error)")
    }
    let made = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
    #expect(made.isEmpty, "\(made)")
  }

  @Test("delete of a domain removes its file and its lock file")
  func deleteDomainRemovesTheLockFileToo() throws {
    let sandbox = Sandbox()
    let directory = sandbox.directory.path
    try sandbox.run("write", "app", "k", "v")
    try sandbox.run("-currentHost", "write", "app", "k", "v")
    #expect(FileManager.default.fileExists(atPath: directory + "/app.plist.lock"))
    #expect(try sandbox.run("delete", "app").status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["ByHost"])
    #expect(try sandbox.run("-currentHost", "delete", "app").status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/ByHost") == [])
    #expect(try sandbox.run("delete", "app").status == 1)
  }

  @Test("A damaged file is reported in one clean line, without an NSError dump")
  func damagedFileMessageIsOneCleanLine() throws {
    let sandbox = Sandbox()
    let path = sandbox.directory.path + "/broken.plist"
    _ = FileManager.default.createFile(
      atPath: path, contents: Data("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8))
    let read = try sandbox.run("read", "broken")
    #expect(read.status == 1)
    #expect(read.error == "Cannot read \(path): it is not a property list\n")
    let write = try sandbox.run("write", "broken", "k", "v")
    #expect(write.status == 0)
    let lines = write.error.split(separator: "\n")
    #expect(lines.count == 1, "\(write.error)")
    #expect(
      write.error.hasPrefix("defaults: \(path) is damaged: it is not a property list; moved to "))
    for dump in ["Error Domain", "UserInfo", "NSDebugDescription", "Code="] {
      #expect(!write.error.contains(dump), "\(write.error)")
    }
    #expect(try sandbox.values("broken")["k"] as? String == "v")
  }

  @Test("watch prints each of two writes made within one poll interval")
  func watchPrintsEveryWriteEvenWhenQuick() throws {
    let sandbox = Sandbox()
    try sandbox.run("write", "watched", "k", "-int", "1")
    let watcher = try RunningChild(
      "defaults", ["watch", "watched"],
      environment: ["XDG_CONFIG_HOME": sandbox.directory.path, "HOME": sandbox.directory.path])
    let process = watcher.process
    DispatchQueue.global().asyncAfter(deadline: .now() + 20) { process.terminate() }
    #expect(watcher.readUntil("Watching").contains("Watching watched"))
    // Back to back, far less than the library's 200 ms poll apart.
    let start = ContinuousClock.now
    try sandbox.run("write", "watched", "k", "-int", "2")
    try sandbox.run("write", "watched", "k", "-int", "3")
    try sandbox.run("write", "watched", "other", "x")
    try sandbox.run("delete", "watched", "k")
    let elapsed = ContinuousClock.now - start
    let text = watcher.readUntil("k deleted")
    watcher.stop()
    #expect(
      text.contains("k = 2\nk = 3\nother = x\nk deleted\n"), "\(text) (writes took \(elapsed))")
  }
}
