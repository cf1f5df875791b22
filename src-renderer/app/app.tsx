export function App() {
  return (
    <main>
      <h1>Ferry</h1>
    </main>
  );
}
