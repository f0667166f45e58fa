import { describe, expect, it } from "vitest";
import { csvCell, parseCsv, toCsv } from "./csv.ts";

describe("parseCsv", () => {
  it("reads plain records with LF or CRLF and ignores the final line break", () => {
    expect(parseCsv("a,b\n1,2\n").rows).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(parseCsv("a,b\r\n1,2").rows).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it("reads quoted fields with commas, doubled quotes and line breaks", () => {
    const { rows, error } = parseCsv('name,note\r\n"Bolt, M6","He said ""hi""\r\nthen left"\r\n');
    expect(error).toBeNull();
    expect(rows).toEqual([
      ["name", "note"],
      ["Bolt, M6", 'He said "hi"\r\nthen left'],
    ]);
  });

  it("keeps empty fields, including a trailing one and an empty quoted one", () => {
    expect(parseCsv('a,,c,\n"",x,"",').rows).toEqual([
      ["a", "", "c", ""],
      ["", "x", "", ""],
    ]);
  });

  it("drops a byte-order mark and blank lines", () => {
    expect(parseCsv("\uFEFFsku\n\nA1\n\n").rows).toEqual([["sku"], ["A1"]]);
  });

  it("keeps spaces and quotes inside unquoted fields", () => {
    expect(parseCsv(' a ,b"c').rows).toEqual([[" a ", 'b"c']]);
  });

  it("reports an unclosed quote and text after a closing quote with the line", () => {
    expect(parseCsv('a\n"oops,1\n2').error).toBe("Line 2: a quoted field is never closed");
    expect(parseCsv('a\n"x"y,1').error).toBe("Line 2: unexpected text after a closing quote");
  });

  it("accepts another delimiter", () => {
    expect(parseCsv("a;b\n1;2", ";").rows).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });
});

describe("toCsv", () => {
  it("quotes only what needs it and ends records with CRLF", () => {
    expect(
      toCsv([
        ["name", "price"],
        ['Bolt, "M6"', 1.5],
        ["x", null],
      ]),
    ).toBe('name,price\r\n"Bolt, ""M6""",1.5\r\nx,\r\n');
  });

  it("defuses spreadsheet formulas but not negative numbers", () => {
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell("@cmd")).toBe("'@cmd");
    expect(csvCell("-12.50")).toBe("-12.50");
    expect(csvCell(-3)).toBe("-3");
  });

  it("round-trips through the parser", () => {
    const rows = [
      ["a", "b,c", 'd"e'],
      ["line\nbreak", "", "z"],
    ];
    expect(parseCsv(toCsv(rows)).rows).toEqual(rows);
  });
});
