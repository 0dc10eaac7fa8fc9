/**
 * The picture every user record's `photo_url` names (`/img/silhouette_125.png`, the
 * original's default): 125 x 125, a grey head and shoulders. Users have no photos of their
 * own yet, so this is every user's; it answered 404 before, and clients showed a broken image.
 */
export const SILHOUETTE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAH0AAAB9CAIAAAAA4vtyAAABfklEQVR42u3cwQ3CQAwEwO2/BL68KYcHH2qhBQRJ7DuPtAVEc1EeF6/zfL3l+gQBd+7Cnbtw5y7cuQt37sKdO3fhzl24cxfu3IU79zNyuz+4n078fbhfyr3WAWRL8f762Ru9LX32Fm+rnyHo3egzB70VfUah96HPNPQm9BmI3oE+M9HL6bkPcy9Hr6XPZPRCeu5j3FuhV9Fz5859FHoJPXfu3Llz586dO/cd0K+n9777znDnzp07d+7cubt/d//OnTt38wTcJ7qbFzMfyZ27+Xd9D30P/SZ9Pn0+/VV9bX1t+wns47CPw/4Z+5a4/34Y6z68fXrcuQt37sKdu3DnLty5C3fu3N2/j3Wf8HPVHId5MfNi5lL1DvQO9CgXdW++BOVi/UAvoQ/0EvpAL6EP8RL9QC+hD/QS+kAvoee+hfuW6GfQB3oJfaCX0HNf2X0I+oH03Jd1H4V+FD33Nd0Hoh9Cz31B97Ho/9Nz584d+tn03Llz586dO3fu3Ln/kg9xMt0Wabm1GAAAAABJRU5ErkJggg==',
  'base64',
);
