import { csvCell, csvLine } from './csv';

describe(csvCell.name, () => {
  it.each([
    ['=HYPERLINK("http://evil")', `"'=HYPERLINK(""http://evil"")"`],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['', ''],
    ['a=b', 'a=b'],
  ])('%j → %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it('numbers, null and forced quotes', () => {
    expect(csvCell(-5)).toBe("'-5");
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined, true)).toBe('""');
    expect(csvCell('x', true)).toBe('"x"');
    expect(csvLine(['a', '=1', null])).toBe("a,'=1,");
  });
});
