import { describe, expect, it } from "vitest";
import { EMPTY_SHA256, signRequest } from "./sigv4.ts";

// The examples of AWS's "Signature Calculations for the Authorization Header: Transferring Payload in a Single
// Chunk" (Amazon S3 API reference), with their published signatures.
const keys = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  region: "us-east-1",
};
const at = new Date("2013-05-24T00:00:00Z");
const signature = (h: Record<string, string>) => /Signature=([0-9a-f]{64})$/.exec(h.authorization)?.[1];

describe("SigV4", () => {
  it("signs AWS's GET Object example (a Range header) as AWS does", () => {
    const h = signRequest(
      {
        method: "GET",
        url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"),
        headers: { Range: "bytes=0-9" },
        payloadHash: EMPTY_SHA256,
      },
      keys,
      at,
    );
    expect(h.authorization).toContain(
      "Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date",
    );
    expect(signature(h)).toBe("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    expect(h["x-amz-date"]).toBe("20130524T000000Z");
  });

  it("signs AWS's GET Bucket example (a query, sorted) as AWS does", () => {
    const h = signRequest(
      {
        method: "GET",
        url: new URL("https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J"),
        payloadHash: EMPTY_SHA256,
      },
      keys,
      at,
    );
    expect(signature(h)).toBe("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  });

  it("signs AWS's GET Bucket lifecycle example (a query key without a value) as AWS does", () => {
    const h = signRequest(
      { method: "GET", url: new URL("https://examplebucket.s3.amazonaws.com/?lifecycle"), payloadHash: EMPTY_SHA256 },
      keys,
      at,
    );
    expect(signature(h)).toBe("fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  });
});
