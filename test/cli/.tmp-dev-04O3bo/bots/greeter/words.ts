export const WORDS = 'words, first edition';
