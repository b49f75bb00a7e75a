import lib from '../src/lib/index.js';
export default function Page() { return lib.hello(); }
