import Capture
import Foundation
import PipcamTestSupport
import XCTest

/// The one JSON writer: what it writes is read back by a strict reader (Python's json module refusing
/// NaN, Infinity and keys out of order), and its text is checked where other tools care about it.
final class JSONValueTests: XCTestCase {
    func testNonFiniteNumbersAreWrittenAsNull() throws {
        let value: JSONValue = [.number(.nan), .number(.infinity), .number(-.infinity), .number(.nan, places: 3),
                                .number(.infinity, places: 2), .number(-.infinity, places: 4), 1.5]
        XCTAssertEqual(value.text, "[null,null,null,null,null,null,1.5]")
        let read = try XCTUnwrap(try StrictJSON.parse(value.indentedText) as? [Any])
        XCTAssertEqual(read.filter { $0 is NSNull }.count, 6)
    }

    func testSlashesAreLeftAsTheyAreAndOnlyWhatJSONRequiresIsEscaped() throws {
        let original = "/dev/video0 \"front\" C:\\cam\n\t\r\u{1}\u{1f} é ✓"
        let text = JSONValue.string(original).text
        XCTAssertEqual(text, #""/dev/video0 \"front\" C:\\cam\n\t\r\u0001\u001f é ✓""#)
        XCTAssertEqual(try StrictJSON.parse(text) as? String, original)
    }

    func testKeysComeOutInSortedOrderAtEveryDepth() throws {
        let value: JSONValue = ["step": 1, "event": "throttle", "settings": ["main-scale": 1, "frame-rate": 30, "inset-scale": 0.5],
                                "Zoom": true, "ärger": .null, "a": []]
        XCTAssertEqual(value.text, #"{"Zoom":true,"a":[],"event":"throttle","settings":{"frame-rate":30,"inset-scale":0.5,"main-scale":1},"step":1,"ärger":null}"#)
        XCTAssertNotNil(try StrictJSON.parse(value.text) as? [String: Any], "the strict reader checks the order too")
    }

    func testIndentedTextHasOneFieldALine() {
        let value: JSONValue = ["b": [1, 2.5], "a": ["c": "/x"], "e": [], "d": [:]]
        XCTAssertEqual(value.indentedText, """
            {
              "a": {
                "c": "/x"
              },
              "b": [
                1,
                2.5
              ],
              "d": {},
              "e": []
            }
            """)
    }

    func testNumbersAreRoundedWhereAskedAndWholeOnesHaveNoFraction() {
        let value: JSONValue = [.number(30), .number(-0.0), .number(0.1), .number(1e20), .number(2.5e-7), .number(1.23456789, places: 3),
                                .number(0.00005, places: 4), .number(1e300, places: 4), .integer(-7)]
        XCTAssertEqual(value.text, "[30,0,0.1,1e+20,2.5e-07,1.235,0.0001,1e+300,-7]")
    }

    func testEncodableValuesKeepTheirCodingKeysAndReadBack() throws {
        struct Still: Codable, Equatable {
            var file: String
            var time: Double
            var scale: Float
            var taken: Date
            var controls: [String: String]
            var bracket: [String: Int]?
            enum CodingKeys: String, CodingKey { case file, time, scale = "inset-scale", taken, controls, bracket }
        }
        let still = Still(file: "/photos/1-front.jpg", time: 1.25, scale: 0.1, taken: Date(timeIntervalSince1970: 1_700_000_000),
                          controls: ["brightness": "0"], bracket: nil)
        let text = try JSONValue(encoding: [still]).text
        XCTAssertEqual(text, #"[{"controls":{"brightness":"0"},"file":"/photos/1-front.jpg","inset-scale":0.1,"taken":"2023-11-14T22:13:20Z","time":1.25}]"#)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        XCTAssertEqual(try decoder.decode([Still].self, from: Data(text.utf8)), [still])

        struct Measurement: Encodable { var value: Double }
        let measured = try XCTUnwrap(try StrictJSON.parse(try JSONValue(encoding: Measurement(value: .nan)).text) as? [String: Any])
        XCTAssertTrue(measured["value"] is NSNull, "JSONEncoder would throw here")
    }
}
