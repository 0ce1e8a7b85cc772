import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// The store's XML property-list reader must read every file the store's writer and
/// Foundation write exactly as `PropertyListSerialization` does, and give up (`nil`)
/// rather than guess on anything else.
@Suite("The store's XML property-list reader")
struct PropertyListXMLReaderTests {
  /// Every property-list type, with the edge cases of each.
  static var values: [String: Any] {
    let megabyte = Data(
      (0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
    return [
      "true": true, "false": false, "zero": 0, "one": 1, "negative": -42,
      "int64Max": Int64.max, "int64Min": Int64.min, "uint64Max": UInt64.max,
      "aboveInt64": UInt64(Int64.max) + 1, "int32Max": Int(Int32.max) + 1,
      "tenth": 0.1, "sum": 0.1 + 0.2, "negativeZero": -0.0, "huge": 1e300,
      "tiny": Double.leastNonzeroMagnitude,
      "negativeReal": -2.5, "nan": Double.nan, "infinity": Double.infinity,
      "minusInfinity": -Double.infinity, "float": Float(0.1), "wholeReal": 3.0,
      "ascii": "plain", "empty": "",
      "escapes": "a & b < c > d \"double\" 'single' ]]> &amp; <![CDATA[x]]>",
      "unicode": "é e\u{301} 😀 👩‍👩‍👧 中文 한국어 \u{FEFF} \u{10FFFF}",
      "controls": "\t\r\n\u{1}\u{8}\u{B}\u{C}\u{1F}\u{7F}", "spaces": "  both ends  ",
      "data": Data([0, 1, 2, 254, 255]), "emptyData": Data(), "oneByte": Data([7]),
      "twoBytes": Data([7, 8]), "megabyte": megabyte,
      "date": Date(timeIntervalSince1970: 1_700_000_000), "epoch": Date(timeIntervalSince1970: 0),
      "referenceDate": Date(timeIntervalSinceReferenceDate: 0),
      "oldDate": Date(timeIntervalSince1970: -62_135_596_800 + 86_400 * 365 * 50),
      "leapDay": Date(timeIntervalSince1970: 951_782_400),
      "future": Date(timeIntervalSince1970: 253_402_300_799),
      "fractionalDate": Date(timeIntervalSince1970: 1.75),
      "array": [
        1, "two", 3.5, [true] as [Any], ["k": "v"], Data([1]), Date(timeIntervalSince1970: 60),
      ]
        as [Any],
      "emptyArray": [Any](), "emptyDictionary": [String: Any](),
      "nested": ["a": ["b": ["c": [[[1, [String: Any]()] as [Any]] as [Any]] as [Any]]]]
        as [String: Any],
      "": "empty key", " ": "space key", "<&>\"'": "odd key", "😀": "emoji key",
      "key\twith\ttabs": 1, "e\u{301}": "combining key",
    ]
  }

  enum Writer: String, CaseIterable, CustomTestStringConvertible {
    case store, foundation
    var testDescription: String { rawValue }

    func data(_ values: [String: Any]) throws -> Data {
      switch self {
      case .store:
        // Less what the library's writer leaves to binary (XML cannot hold it exactly):
        // control characters and a date's fraction, which Foundation writes anyway.
        let writable = values.filter { PropertyListXMLWriter.data(for: [$0.key: $0.value]) != nil }
        return try #require(PropertyListXMLWriter.data(for: writable))
      case .foundation:
        return try PropertyListSerialization.data(
          fromPropertyList: values, format: .xml, options: 0)
      }
    }
  }

  // MARK: Files both writers produce

  @Test(arguments: Writer.allCases)
  func readsEveryValueAsPropertyListSerializationDoes(writer: Writer) throws {
    let data = try writer.data(Self.values)
    let ours = try #require(PropertyListXMLReader.dictionary(from: data))
    let theirs = try #require(
      PropertyListObject.dictionary(
        try PropertyListSerialization.propertyList(from: data, format: nil)))
    #expect(ours.count == theirs.count)
    for (key, value) in theirs {
      #expect(Self.same(ours[key] ?? "missing", value), "\(key)")
    }
  }

  @Test func valuesComeBackAsSwiftTypesNotFoundationObjects() throws {
    let data = try Writer.store.data(Self.values)
    let ours = try #require(PropertyListXMLReader.dictionary(from: data))
    #expect(type(of: ours["one"] ?? "") == Int.self)
    #expect(type(of: ours["int64Min"] ?? "") == Int.self)
    // Above Int64.max Foundation hands back an unsigned number; so does the reader.
    #expect(type(of: ours["uint64Max"] ?? "") == UInt64.self)
    #expect(type(of: ours["tenth"] ?? "") == Double.self)
    #expect(type(of: ours["true"] ?? "") == Bool.self)
    #expect(type(of: ours["empty"] ?? 0) == String.self)
    #expect(type(of: ours["date"] ?? "") == Date.self)
    #expect(type(of: ours["data"] ?? "") == Data.self)
    #expect(ours["array"] is [Any])
    #expect(ours["nested"] is [String: Any])
  }

  /// Text is scanned eight bytes at a time: a reference, a CDATA section, a non-ASCII
  /// character or invalid UTF-8 must be seen at every offset within and across words.
  @Test(arguments: Writer.allCases)
  func readsTextAlikeWhereverItsSpecialBytesFall(writer: Writer) throws {
    for length in 0...18 {
      for offset in 0...length {
        let padding = String(repeating: "a", count: length)
        let index = padding.index(padding.startIndex, offsetBy: offset)
        var values: [String: Any] = [:]
        for (name, insert) in [("amp", "&"), ("lt", "<"), ("e", "é"), ("emoji", "😀")] {
          let text = String(padding[..<index]) + insert + String(padding[index...])
          values["\(name)-\(text)"] = text
        }
        let data = try writer.data(values)
        let ours = try #require(PropertyListXMLReader.dictionary(from: data), "\(length) \(offset)")
        #expect(Self.same(ours, values), "\(length) \(offset)")
        // Hand-made forms neither writer uses, at the same place.
        let before = Array(padding.utf8.prefix(offset))
        let after = Array(padding.utf8.dropFirst(offset))
        func file(_ middle: [UInt8]) -> Data {
          Data(
            Array("<plist><dict><key>k</key><string>".utf8) + before + middle + after
              + Array("</string></dict></plist>".utf8))
        }
        let cdata = try #require(
          PropertyListXMLReader.dictionary(from: file(Array("<![CDATA[<&]]>".utf8))))
        #expect(cdata["k"] as? String == padding.prefix(offset) + "<&" + padding.dropFirst(offset))
        #expect(PropertyListXMLReader.dictionary(from: file([0xFF])) == nil, "\(length) \(offset)")
      }
    }
  }

  /// Captured on Linux (Swift 6.3.1): a suite's file after `UserDefaults.set` of these
  /// values and `synchronize()`. It is byte for byte what `PropertyListSerialization`
  /// writes in `.xml` format for the same dictionary (checked when it was captured).
  static let synchronizedFile = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>array</key>
    \t<array>
    \t\t<integer>1</integer>
    \t\t<string>two</string>
    \t\t<real>3.5</real>
    \t\t<array>
    \t\t\t<true/>
    \t\t</array>
    \t\t<dict>
    \t\t\t<key>k</key>
    \t\t\t<string>v</string>
    \t\t</dict>
    \t</array>
    \t<key>bool</key>
    \t<true/>
    \t<key>data</key>
    \t<data>
    \tAAMGCQwPEhUYGx4hJCcqLTAzNjk8P0JFSEtOUVRXWl1gY2ZpbG9ydXh7foGEh4qNkJOW
    \tmZyfoqWoq66xtLe6vcDDxsnMz9LV2Nve4eTn6u0=
    \t</data>
    \t<key>date</key>
    \t<date>2023-11-14T22:13:20Z</date>
    \t<key>dictionary</key>
    \t<dict>
    \t\t<key>&lt;odd key&gt;</key>
    \t\t<integer>1</integer>
    \t\t<key>nested</key>
    \t\t<dict>
    \t\t\t<key>deeper</key>
    \t\t\t<array>
    \t\t\t\t<integer>1</integer>
    \t\t\t\t<integer>2</integer>
    \t\t\t</array>
    \t\t</dict>
    \t</dict>
    \t<key>empty</key>
    \t<string></string>
    \t<key>emptyArray</key>
    \t<array/>
    \t<key>emptyData</key>
    \t<data>
    \t</data>
    \t<key>emptyDictionary</key>
    \t<dict/>
    \t<key>false</key>
    \t<false/>
    \t<key>infinity</key>
    \t<real>-infinity</real>
    \t<key>int</key>
    \t<integer>42</integer>
    \t<key>int64Max</key>
    \t<integer>9223372036854775807</integer>
    \t<key>int64Min</key>
    \t<integer>-9223372036854775808</integer>
    \t<key>nan</key>
    \t<real>nan</real>
    \t<key>negative</key>
    \t<integer>-7</integer>
    \t<key>real</key>
    \t<real>0.10000000000000001</real>
    \t<key>string</key>
    \t<string>a &amp; b &lt; c &gt; "d" 'e' ]]&gt; é 😀 中文 é</string>
    \t<key>uint64Max</key>
    \t<integer>18446744073709551615</integer>
    </dict>
    </plist>

    """

  @Test func readsAFileWrittenByUserDefaultsSynchronize() throws {
    let data = Data(Self.synchronizedFile.utf8)
    let ours = try #require(PropertyListXMLReader.dictionary(from: data))
    let theirs = try PropertyListSerialization.propertyList(from: data, format: nil)
    #expect(Self.same(ours, theirs))
    #expect(ours.count == 19)
    #expect(ours["uint64Max"] as? UInt64 == .max)
    #expect(ours["string"] as? String == "a & b < c > \"d\" 'e' ]]> é 😀 中文 e\u{301}")
  }

  // MARK: Other writers' valid forms

  /// Forms neither writer produces but Foundation reads, which the reader reads too.
  static let otherValidForms: [String] = [
    "<plist><dict><key>a</key><integer>1</integer></dict></plist>",
    "<?xml version='1.0' encoding='utf-8'?><plist version=\"1.0\"><dict/></plist>",
    "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n</dict>\n</plist>\n",
    "<!DOCTYPE plist SYSTEM \"file://localhost/System/Library/DTDs/PropertyList.dtd\">"
      + "<plist><dict/></plist>",
    "<!-- a --><plist><!-- b --><dict><!-- c --><key>k</key><!-- d --><array><!-- e -->"
      + "<true/></array><!-- f --></dict></plist><!-- g -->\n",
    "<plist> <!-- a --> \n <!----> <dict> <key>k</key> <!-- b --><!-- c --> <true/> </dict>"
      + " </plist> <!-- d --> ",
    "<plist>\r\n<dict>\r\n<key>k</key>\r\n<string>line\r\nbreak</string>\r\n</dict>\r\n</plist>\r\n",
    "<plist><dict><key>k</key><string>&quot;&apos;&amp;&lt;&gt;&#65;&#x42;&#xe9;&#x1F600;&#233;"
      + "</string></dict></plist>",
    "<plist><dict><key>k</key><string>a<![CDATA[<b> & ]]]]>c<![CDATA[]]>d</string></dict></plist>",
    "<plist><dict><key>&amp;key&#33;</key><string/></dict></plist>",
    "<plist><dict><key>k</key><integer>1</integer><key>k</key><string>last wins</string></dict>"
      + "</plist>",
    "<plist><dict><key>a</key><integer>-0</integer><key>b</key><integer>007</integer>"
      + "<key>c</key><integer>-9223372036854775808</integer>"
      + "<key>d</key><integer>9223372036854775808</integer></dict></plist>",
    "<plist><dict><key>a</key><real>1E5</real><key>b</key><real>.5</real><key>c</key>"
      + "<real>5.</real><key>d</key><real>+1.5</real><key>e</key><real>-0.0</real>"
      + "<key>f</key><real>1e400</real><key>g</key><real>1e-400</real><key>h</key>"
      + "<real>NaN</real><key>i</key><real>inf</real><key>j</key><real>-inf</real>"
      + "<key>k</key><real>infinity</real><key>l</key><real>7</real></dict></plist>",
    "<plist><dict><key>a</key><data>AAEC /v8 =</data><key>b</key><data>\n\t\tAA==\n\t</data>"
      + "<key>c</key><data></data><key>d</key><data>AF==</data><key>e</key><data>QUJD</data>"
      + "</dict></plist>",
    "<plist><dict><key>a</key><date>2000-02-29T23:59:59Z</date><key>b</key>"
      + "<date>0001-01-01T00:00:00Z</date><key>c</key><date>1582-10-10T12:00:00Z</date>"
      + "</dict></plist>",
    "<plist><dict><key>a</key><array/><key>b</key><dict/><key>c</key><array></array>"
      + "<key>d</key><dict></dict><key>e</key><string></string></dict></plist>",
    // Repeated keys: the last one wins, at the top and nested.
    "<plist><dict><key>k</key><integer>1</integer><key>j</key><integer>2</integer>"
      + "<key>k</key><string>two</string><key>k</key><integer>3</integer></dict></plist>",
    "<plist><dict><key>d</key><dict><key>k</key><true/><key>k</key><false/></dict>"
      + "<key>d2</key><integer>0</integer></dict></plist>",
  ]

  @Test("A root of a few large values is held in a table of its size, not of the file's")
  func fewLargeValuesKeepASmallTable() throws {
    let large = String(repeating: "x", count: 1 << 20)
    let text =
      "<plist><dict><key>a</key><string>\(large)</string><key>b</key><integer>1</integer>"
      + "</dict></plist>"
    let values = try #require(
      Data(text.utf8).withUnsafeBytes { PropertyListXMLReader.storedObjects(in: $0) })
    #expect(values.count == 2)
    // Sized from the document's length alone, the table would hold 32,768 entries.
    #expect(values.capacity < 64)
  }

  @Test(arguments: otherValidForms)
  func readsOtherValidFormsAsPropertyListSerializationDoes(_ text: String) throws {
    let data = Data(text.utf8)
    let ours = try #require(PropertyListXMLReader.dictionary(from: data))
    let theirs = try PropertyListSerialization.propertyList(from: data, format: nil)
    #expect(Self.same(ours, theirs))
  }

  // MARK: What is left to Foundation

  /// Valid or not, these are not sure to read as Foundation reads them: `nil`, so the
  /// store asks `PropertyListSerialization`, which also decides whether the file is damaged.
  static let leftToFoundation: [String] = [
    "", " ", "<plist/>", "<plist></plist>", "<plist><array/></plist>",
    "<plist><string>x</string></plist>", "<dict/>", "<plist><dict/><dict/></plist>",
    "<plist><dict/></plist>trailing", "<plist><dict/></plist><dict/>",
    "<plist><dict/></plist><!", "<plist><dict/></plist><!-", "<plist><dict><!-x --></dict></plist>",
    "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><dict/></plist>",
    "\u{FEFF}<plist><dict/></plist>",
    "<!DOCTYPE plist [<!ENTITY x \"y\">]><plist><dict><key>k</key><string>&x;</string></dict>"
      + "</plist>",
    "<?xml-stylesheet href=\"a\"?><plist><dict/></plist>",
    "<plist><dict><key>k</key><integer>+1</integer></dict></plist>",
    "<plist><dict><key>k</key><integer>0x1F</integer></dict></plist>",
    "<plist><dict><key>k</key><integer> 1</integer></dict></plist>",
    "<plist><dict><key>k</key><integer>18446744073709551616</integer></dict></plist>",
    "<plist><dict><key>k</key><integer>-9223372036854775809</integer></dict></plist>",
    "<plist><dict><key>k</key><integer></integer></dict></plist>",
    "<plist><dict><key>k</key><integer/></dict></plist>",
    "<plist><dict><key>k</key><real>0x1p3</real></dict></plist>",
    "<plist><dict><key>k</key><real> 1.5</real></dict></plist>",
    "<plist><dict><key>k</key><real>1.5.5</real></dict></plist>",
    "<plist><dict><key>k</key><real></real></dict></plist>",
    "<plist><dict><key>k</key><data/></dict></plist>",
    "<plist><dict><key>k</key><data>AAE</data></dict></plist>",
    "<plist><dict><key>k</key><data>AA==AA==</data></dict></plist>",
    "<plist><dict><key>k</key><data>A===</data></dict></plist>",
    "<plist><dict><key>k</key><data>-_8=</data></dict></plist>",
    "<plist><dict><key>k</key><date>2023-02-31T00:00:00Z</date></dict></plist>",
    "<plist><dict><key>k</key><date>2023-02-28T24:00:00Z</date></dict></plist>",
    "<plist><dict><key>k</key><date>2023-02-28</date></dict></plist>",
    "<plist><dict><key>k</key><date>-001-11-28T00:00:00Z</date></dict></plist>",
    "<plist><dict><key>k</key><true></true></dict></plist>",
    "<plist><dict><key>k</key><true /></dict></plist>",
    "<plist><dict><key>k</key><string a=\"1\">x</string></dict></plist>",
    "<plist><dict><key>k</key><string>&bogus;</string></dict></plist>",
    "<plist><dict><key>k</key><string>&amp</string></dict></plist>",
    "<plist><dict><key>k</key><string>&#0;</string></dict></plist>",
    "<plist><dict><key>k</key><string>&#;</string></dict></plist>",
    "<plist><dict><key>k</key><string>&#xD800;</string></dict></plist>",
    "<plist><dict><key>k</key><string>&#x110000;</string></dict></plist>",
    "<plist><dict><key>k</key><string>&#X41;</string></dict></plist>",
    "<plist><dict><key>k</key><string>a<!-- c -->b</string></dict></plist>",
    "<plist><dict><key>k</key><string>a<b/></string></dict></plist>",
    "<plist><dict><key>k</key></dict></plist>",
    "<plist><dict><integer>1</integer></dict></plist>",
    "<plist><dict><key/><integer>1</integer></dict></plist>",
    "<plist><dict><key>k</key><array><key>x</key></array></dict></plist>",
    "<plist><dict><key>k</key><key>j</key><string>x</string></dict></plist>",
    "<plist><dict><key>k</key><unknown/></dict></plist>",
    "<plist><dict><key>k</key><string>x</string></dict>",
    "<plist><dict><key>k</key><string>x</string></dict></plist",
    "<plist><dict><key>k</key><string>x</string></dict></plist   >",
    "<plist><dict><!-- unterminated </dict></plist>",
  ]

  @Test(arguments: leftToFoundation)
  func leavesFormsItIsNotSureOfToFoundation(_ text: String) {
    #expect(PropertyListXMLReader.dictionary(from: Data(text.utf8)) == nil)
  }

  @Test func leavesBinaryPropertyListsAndInvalidUTF8ToFoundation() throws {
    let binary = try PropertyListSerialization.data(
      fromPropertyList: ["k": 1], format: .binary, options: 0)
    #expect(binary.starts(with: Array("bplist00".utf8)))
    #expect(PropertyListXMLReader.dictionary(from: binary) == nil)
    // Foundation replaces invalid UTF-8 with U+FFFD; the reader does not guess.
    for invalid: [UInt8] in [[0xFF], [0xC0, 0x80], [0xE2, 0x82], [0xED, 0xA0, 0x80]] {
      let file =
        Array("<plist><dict><key>k</key><string>".utf8) + invalid
        + Array("</string></dict></plist>".utf8)
      #expect(PropertyListXMLReader.dictionary(from: Data(file)) == nil, "\(invalid)")
    }
    #expect(PropertyListXMLReader.dictionary(from: Data()) == nil)
  }

  // MARK: Damaged input

  /// The value set without the megabyte of data, so that each truncation stays cheap.
  static func smallFile(_ writer: Writer) throws -> Data {
    try writer.data(Self.values.filter { $0.key != "megabyte" })
  }

  @Test(arguments: Writer.allCases)
  func truncatedFilesAreNilOrReadAsPropertyListSerializationReadsThem(writer: Writer) throws {
    let file = try Self.smallFile(writer)
    var read = 0
    for length in 0..<file.count {
      let truncated = file.prefix(length)
      guard let ours = PropertyListXMLReader.dictionary(from: truncated) else { continue }
      read += 1
      let theirs = try PropertyListSerialization.propertyList(from: truncated, format: nil)
      #expect(Self.same(ours, theirs), "truncated at \(length)")
    }
    // Only cuts in the trailing white space still read.
    #expect(read <= 1)
    #expect(PropertyListXMLReader.dictionary(from: file) != nil)
  }

  @Test func corruptedBytesAreNilOrReadAsPropertyListSerializationReadsThem() throws {
    var generator = SeededGenerator(seed: 0x5EED)
    let file = try Self.smallFile(.foundation)
    var candidates: [Data] = []
    for _ in 0..<300 {
      let length = Int.random(in: 0..<200, using: &generator)
      candidates.append(
        Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }
    let alphabet = Array("<>/&;#x[]!-?=\"' \t\nabdefgiklnprstuy0123456789.+eE".utf8)
    for _ in 0..<3_000 {
      var bytes = [UInt8](file)
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        let byte =
          Bool.random(using: &generator)
          ? alphabet.randomElement(using: &generator) ?? 0
          : UInt8.random(in: 0...255, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[index] = byte
        case 1: bytes.insert(byte, at: index)
        default: bytes.remove(at: index)
        }
      }
      candidates.append(Data(bytes))
    }
    var read = 0
    for candidate in candidates {
      guard let ours = PropertyListXMLReader.dictionary(from: candidate) else { continue }
      read += 1
      let theirs = try? PropertyListSerialization.propertyList(from: candidate, format: nil)
      #expect(
        theirs.map { Self.same(ours, $0) } ?? false,
        "\(String(decoding: candidate, as: UTF8.self))")
    }
    // Many mutations land in text or digits and still read (330 of 3,300 with this seed).
    #expect(read > 100)
  }

  @Test func nestingBeyondTheLimitIsLeftToFoundation() throws {
    func nested(_ depth: Int) -> Data {
      // The root dictionary is one level; `depth - 1` arrays inside it.
      let arrays = depth - 1
      return Data(
        ("<plist><dict><key>k</key>" + String(repeating: "<array>", count: arrays)
          + String(repeating: "</array>", count: arrays) + "</dict></plist>").utf8)
    }
    let deepest = nested(PropertyListXMLReader.maximumDepth)
    let ours = try #require(PropertyListXMLReader.dictionary(from: deepest))
    #expect(Self.same(ours, try PropertyListSerialization.propertyList(from: deepest, format: nil)))
    #expect(
      PropertyListXMLReader.dictionary(from: nested(PropertyListXMLReader.maximumDepth + 1)) == nil)
    // Far deeper than any stack could recurse: refused at the limit, without recursing on.
    #expect(PropertyListXMLReader.dictionary(from: nested(100_000)) == nil)
    let unclosed = Data(
      ("<plist><dict><key>k</key>" + String(repeating: "<dict><key>k</key>", count: 100_000)).utf8)
    #expect(PropertyListXMLReader.dictionary(from: unclosed) == nil)
  }

  // MARK: Equality

  /// Whether two property-list objects, Swift values or Foundation objects, hold the same
  /// value of the same type: Bool, integer and real are distinct, integers compare exactly
  /// across signed and unsigned storage, reals by bit pattern (so -0.0 is not 0.0) or both
  /// NaN, strings by their Unicode scalars (not canonical equivalence). Stricter than the
  /// library's `PropertyListEquality.isEqual`, which calls 0.0 and -0.0, or "é" and
  /// "e\u{301}", equal: a reader that changed those would pass there.
  static func same(_ lhs: Any, _ rhs: Any) -> Bool {
    let kind = PropertyListKind(of: lhs)
    guard kind == PropertyListKind(of: rhs) else { return false }
    switch kind {
    case .bool: return (lhs as? Bool) == (rhs as? Bool)
    case .integer:
      guard let lhs = integer(lhs), let rhs = integer(rhs) else { return false }
      return lhs == rhs
    case .real:
      guard let lhs = (lhs as? NSNumber)?.doubleValue, let rhs = (rhs as? NSNumber)?.doubleValue
      else { return false }
      return lhs.bitPattern == rhs.bitPattern || (lhs.isNaN && rhs.isNaN)
    case .string:
      guard let lhs = lhs as? String, let rhs = rhs as? String else { return false }
      return lhs.unicodeScalars.elementsEqual(rhs.unicodeScalars)
    case .data: return (lhs as? Data) == (rhs as? Data)
    case .date: return (lhs as? Date) == (rhs as? Date)
    case .array:
      guard let lhs = PropertyListObject.array(lhs), let rhs = PropertyListObject.array(rhs),
        lhs.count == rhs.count
      else { return false }
      return zip(lhs, rhs).allSatisfy { same($0, $1) }
    case .dictionary:
      guard let lhs = PropertyListObject.dictionary(lhs),
        let rhs = PropertyListObject.dictionary(rhs), lhs.count == rhs.count
      else { return false }
      return lhs.allSatisfy { key, value in
        rhs[key].map { same(value, $0) } ?? false
          && rhs.keys.contains { $0.unicodeScalars.elementsEqual(key.unicodeScalars) }
      }
    case .opaque: return (lhs as? PropertyListOpaque) == (rhs as? PropertyListOpaque)
    case .other: return false
    }
  }

  /// An integer as sign and magnitude, whatever its storage.
  static func integer(_ value: Any) -> (negative: Bool, magnitude: UInt64)? {
    if let value = value as? UInt64, type(of: value) == UInt64.self { return (false, value) }
    guard let number = value as? NSNumber else { return nil }
    if UInt8(bitPattern: number.objCType.pointee) == UInt8(ascii: "Q") {
      return (false, number.uint64Value)
    }
    let signed = number.int64Value
    return (signed < 0, signed.magnitude)
  }

  @Test func equalityUsedHereTellsTypesAndBitsApart() {
    #expect(!Self.same(true, 1))
    #expect(!Self.same(1, 1.0))
    #expect(!Self.same(0.0, -0.0))
    #expect(Self.same(Double.nan, Double.nan))
    #expect(!Self.same("é", "e\u{301}"))
    #expect(Self.same(UInt64.max, NSNumber(value: UInt64.max)))
    #expect(!Self.same(UInt64.max, -1))
    #expect(Self.same([1, [true]] as [Any], [NSNumber(value: 1), [true]] as [Any]))
  }
}
