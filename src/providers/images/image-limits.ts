/**
 * Each provider's documented limits on the images of one request. A request past them is rejected whole
 * (Anthropic answers 400 for a 5 MB+ image), which would end the run; the host leaves such images out with
 * a note instead (see `fitRequestImages`).
 */

export interface ImageLimits {
  /** Named in the note to the model. */
  provider: string;
  /** The most bytes of one image (decoded). */
  maxImageBytes: number;
  /** The longest side of one image, in pixels. */
  maxImageSide?: number;
  /** Past `over` images in one request, the longest side is `maxSide` instead. */
  manyImages?: { over: number; maxSide: number };
  /** The most images in one request. */
  maxImages: number;
  /** The most bytes of all images of one request together (decoded). */
  maxTotalBytes: number;
}

const MB = 1024 * 1024;

/**
 * Anthropic: 5 MB per image, 8,000 px per side (2,000 px when a request has more than 20 images), 100 images
 * per request (200K-context models; others take 600), 32 MB per request body, so about 23 MB of images once
 * base64 adds its third.
 */
export const ANTHROPIC_IMAGE_LIMITS: ImageLimits = {
  provider: 'Anthropic',
  maxImageBytes: 5 * MB,
  maxImageSide: 8_000,
  manyImages: { over: 20, maxSide: 2_000 },
  maxImages: 100,
  maxTotalBytes: 23 * MB,
};

/**
 * OpenAI: 50 MB of image payload per request (base64, so about 36 MB of images) and 500 images per request;
 * no per-image limit beyond that, and large images are scaled down by the API.
 */
export const OPENAI_IMAGE_LIMITS: ImageLimits = {
  provider: 'OpenAI',
  maxImageBytes: 36 * MB,
  maxImages: 500,
  maxTotalBytes: 36 * MB,
};

/**
 * Gemini: inline data counts toward the 20 MB request limit (base64 included), so about 14 MB of images;
 * 3,000 images per prompt; Vertex AI takes 7 MB per inline image.
 */
export const GEMINI_IMAGE_LIMITS: ImageLimits = {
  provider: 'Gemini',
  maxImageBytes: 7 * MB,
  maxImages: 3_000,
  maxTotalBytes: 14 * MB,
};
