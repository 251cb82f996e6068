// heic-convert 2.1.0 ships no types: the one call used here.
declare module 'heic-convert' {
  function convert(options: {
    buffer: Uint8Array;
    format: 'JPEG' | 'PNG';
    quality?: number;
  }): Promise<ArrayBuffer>;
  export default convert;
}
