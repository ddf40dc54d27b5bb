/** A fetch that answers with `text` arriving in pieces of `pieceBytes`, as a server's body may reach the host. */
export function serverAnsweringInPieces(
  text: string,
  contentType: string,
  pieceBytes: number,
): () => Promise<Response> {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let from = 0; from < bytes.length; from += pieceBytes)
        controller.enqueue(bytes.slice(from, from + pieceBytes));
      controller.close();
    },
  });
  return async () => new Response(body, { headers: { 'content-type': contentType } });
}
