// Build the book's Pagefind index from the sections the Sphinx extension wrote (book/_ext/book_search.py).
//
//   node widgets/js/search/pagefind_index.mjs RECORDS.json OUTPUT_DIR
//
// RECORDS.json: [{"url": "book/pf2e.html#multiple-attack-penalty", "html": "<html lang=ko>…"}, …],
// one small HTML page per section or glossary entry (its heading, its own text, its metadata and
// filters as data-pagefind-* attributes). Writes the index into OUTPUT_DIR (pagefind.js, the
// WebAssembly, index chunks and one fragment per record; never an empty file). Uses the npm package `pagefind` pinned
// in package-lock.json; prints Pagefind's errors and exits non-zero on any.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as pagefind from "pagefind";

const [recordsPath, outputPath] = process.argv.slice(2);
if (!recordsPath || !outputPath) {
  console.error("usage: node pagefind_index.mjs RECORDS.json OUTPUT_DIR");
  process.exit(2);
}
const records = JSON.parse(await readFile(recordsPath, "utf8"));
const { index, errors } = await pagefind.createIndex({ forceLanguage: "ko" });
const problems = [...errors];
if (index) {
  for (const record of records) {
    const added = await index.addHTMLFile({ url: record.url, content: record.html });
    problems.push(...added.errors.map((e) => `${record.url}: ${e}`));
  }
  // The files are taken in memory and written here (rather than with index.writeFiles), so that
  // every file is complete before the indexing service is closed.
  const got = await index.getFiles();
  problems.push(...got.errors);
  for (const file of got.files || []) {
    if (!file.content.length) problems.push(`${file.path}: empty`);
    const target = join(outputPath, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
}
await pagefind.close();
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`pagefind: ${records.length} records indexed into ${outputPath}`);
