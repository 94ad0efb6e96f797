// lines.js: the program tests/integration/source-v8.sh profiles with
// node --cpu-prof, to compare deepq's costs by line with the profile's
// positionTicks: recursion (fib) and a loop over several lines (work).
function fib(n) {
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}

function work() {
  let s = 0;
  for (let i = 0; i < 2e6; i++)
    s += Math.sqrt(i) * 1.0001;
  return s + fib(22);
}

let t = 0;
for (let k = 0; k < 10; k++)
  t += work();
console.log(t > 0);
