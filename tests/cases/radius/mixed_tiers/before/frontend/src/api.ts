export async function fetchUser() {
  return {};
}
